import type { Database } from '../db/connection';
import { auditEvents } from '../db/schema';

export interface AuditEntry {
  actorUserId: number | null;
  entityType: string;
  entityId: string | number;
  action: string;
  from?: unknown;
  to?: unknown;
}

/** Every state change writes one of these, in the same transaction as the change. */
export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    actorUserId: entry.actorUserId,
    entityType: entry.entityType,
    entityId: String(entry.entityId),
    action: entry.action,
    fromState: entry.from ?? null,
    toState: entry.to ?? null,
  });
}
