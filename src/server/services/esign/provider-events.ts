import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import { providerEvents } from '../../db/schema';

/** What POST /docusign/connect answers: something changed, the event was recorded before, or nothing to do. */
export type ConnectOutcome = { outcome: 'recorded' | 'replayed' | 'ignored' };

/** What identifies one event of one envelope, however often Connect sends it (retryCount aside). */
export interface ProviderEventKey {
  provider: 'docusign';
  envelopeId: string;
  event: string;
  generatedAt: string;
  bodySha256: string;
}

/** Records the event in the caller's transaction: false when it was recorded before (a replay). */
export async function recordProviderEvent(tx: Database, key: ProviderEventKey): Promise<boolean> {
  const inserted = await tx.insert(providerEvents).values(key).onConflictDoNothing().returning({ id: providerEvents.id });
  return inserted.length > 0;
}

/** Whether the event was recorded before (looked at before anything is fetched). */
export async function eventSeen(db: Database, key: ProviderEventKey): Promise<boolean> {
  const [row] = await db
    .select({ id: providerEvents.id })
    .from(providerEvents)
    .where(
      and(
        eq(providerEvents.provider, key.provider),
        eq(providerEvents.envelopeId, key.envelopeId),
        eq(providerEvents.event, key.event),
        eq(providerEvents.generatedAt, key.generatedAt),
      ),
    );
  return row !== undefined;
}
