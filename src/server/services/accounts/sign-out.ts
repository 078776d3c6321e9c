import type { ServiceContext } from '../context';
import { revokeSession } from '../../auth/sessions';
import { removeSessionSubscriptions } from '../../push/session-subscriptions';
import { recordAudit } from '../audit';

/** Ends this session (the caller's), audited; the device's push subscriptions go with it (docs/decisions.md 680). */
export async function signOut({ db, actor }: ServiceContext, { sessionId }: { sessionId: number }): Promise<void> {
  const userId = actor.id;
  await revokeSession(db, sessionId);
  await removeSessionSubscriptions(db, { sessionId });
  await recordAudit(db, {
    actorUserId: userId,
    entityType: 'session',
    entityId: sessionId,
    action: 'signedOut',
    from: { state: 'active' },
    to: { state: 'revoked' },
  });
}
