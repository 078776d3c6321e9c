import { type Config } from '../../config';
import { type Database } from '../../db/connection';
import { enqueueEmail } from '../../mail/outbox';
import { invitationEmail, type InvitationKind } from '../../mail/templates';
import { recordAudit } from '../audit';
import { INVITATION_TTL_MS } from '../../../shared/rules/limits';
import { issueToken } from './account-record';

/**
 * Creates the token of an invitation and its email (`/sign-up-{kind}/{uuid}`). Called in the
 * transaction that creates the account, so no invitation exists for an account that does not.
 */
export async function inviteUser(
  db: Database,
  config: Config,
  invite: { userId: number; email: string; kind: InvitationKind; actorUserId: number | null; applicationId?: number },
): Promise<string> {
  const token = await issueToken(db, invite.userId, 'invitation', INVITATION_TTL_MS);
  const email = invitationEmail(config.brand, invite.kind, `${config.publicUrl}/sign-up-${invite.kind}/${token}`);
  await enqueueEmail(db, { to: invite.email, ...email, userType: invite.kind, applicationId: invite.applicationId ?? null });
  await recordAudit(db, {
    actorUserId: invite.actorUserId,
    entityType: 'user',
    entityId: invite.userId,
    action: 'invited',
    to: { status: 'invited' },
  });
  return token;
}
