import type { ServiceContext } from '../context';
import { revokeSession } from '../../auth/sessions';
import { recordAudit } from '../audit';

/** Ends this session (the caller's), audited. */
export async function signOut({ db, actor }: ServiceContext, { sessionId }: { sessionId: number }): Promise<void> {
  const userId = actor.id;
  await revokeSession(db, sessionId);
  await recordAudit(db, {
    actorUserId: userId,
    entityType: 'session',
    entityId: sessionId,
    action: 'signedOut',
    from: { state: 'active' },
    to: { state: 'revoked' },
  });
}
