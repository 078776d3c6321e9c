import { asc, eq, inArray } from 'drizzle-orm';
import { pushSubscriptions } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { endpointCode, isAuthSecret, isP256PublicKey } from '../../push/subscription-checks';
import type { FieldCode } from '../../../shared/rules/error-codes';
import type { components } from '../../../shared/api/schema';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import type { PushSubscriptionRecord } from './list-push-subscriptions';

/** Devices per person: a new one beyond this replaces the oldest (docs/decisions.md 680). */
const MAX_DEVICES = 10;

/**
 * Turns notifications on for this device: the browser's subscription, tied to the caller and the
 * session. The same endpoint again (the browser renewed its keys, or someone else signs in on it)
 * replaces its row, and with it anything still queued for the row's earlier owner. Audited.
 */
export async function subscribePush(
  { db, actor, config }: ServiceContext,
  input: { sessionId: number; body: components['schemas']['PushSubscriptionRequest'] },
): Promise<PushSubscriptionRecord> {
  const { endpoint, keys } = input.body;
  const deviceLabel = input.body.deviceLabel.trim();
  const fields: Record<string, FieldCode> = {};
  const endpointProblem = endpointCode(endpoint, { production: config.production, serviceHosts: config.push.serviceHosts });
  if (endpointProblem) fields.endpoint = endpointProblem;
  if (!isP256PublicKey(keys.p256dh)) fields['keys.p256dh'] = 'invalid';
  if (!isAuthSecret(keys.auth)) fields['keys.auth'] = 'invalid';
  if (!deviceLabel) fields.deviceLabel = 'required';
  if (Object.keys(fields).length > 0) throw AppError.validation(fields);

  return db.transaction(async (tx) => {
    const replaced = await tx
      .delete(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, endpoint))
      .returning({ id: pushSubscriptions.id, userId: pushSubscriptions.userId });
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ userId: actor.id, sessionId: input.sessionId, endpoint, p256dh: keys.p256dh, auth: keys.auth, deviceLabel })
      .returning({ id: pushSubscriptions.id, createdAt: pushSubscriptions.createdAt });
    const own = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, actor.id))
      .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
    const oldest = own.slice(0, Math.max(0, own.length - MAX_DEVICES)).map((s) => s.id);
    if (oldest.length > 0) await tx.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, oldest));
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'pushSubscription',
      entityId: row!.id,
      action: 'subscribed',
      from: replaced.length > 0 || oldest.length > 0 ? { replaced: replaced.map((r) => r.id), removedOldest: oldest } : undefined,
      to: { deviceLabel, sessionId: input.sessionId },
    });
    return { id: row!.id, deviceLabel, createdAt: row!.createdAt.toISOString(), thisDevice: true };
  });
}
