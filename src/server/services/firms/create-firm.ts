import { firms } from '../../db/schema';
import { type ServiceContext } from '../context';
import { firmCreateSchema } from '../../../shared/schemas/administration';
import { inviteUser } from '../accounts/invite-user';
import { recordAudit } from '../audit';
import { assertLoginFree, insertInvitedAccount, parseForm, withLoginGuard } from '../accounts/managed-accounts';
import { getFirm } from './get-firm';

/**
 * Adds a firm and its admin account (role firm, invited) and sends the invitation
 * (/sign-up-admin/{uuid}), all in one transaction.
 */
export async function createFirm(ctx: ServiceContext, body: unknown) {
  const { db, config, actor: user } = ctx;
  const input = parseForm(firmCreateSchema, body);
  const firmId = await withLoginGuard(() =>
    db.transaction(async (tx) => {
      await assertLoginFree(tx, input.login);
      const [firm] = await tx.insert(firms).values({ name: input.firmName }).returning({ id: firms.id });
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'firm',
        entityId: firm!.id,
        action: 'created',
        to: { firmName: input.firmName },
      });
      const admin = await insertInvitedAccount(
        tx,
        { email: input.login, role: 'firm', firstName: input.firstName, surname: input.surname, firmId: firm!.id },
        user.id,
      );
      await inviteUser(tx, config, { userId: admin.id, email: input.login, kind: 'admin', actorUserId: user.id });
      return firm!.id;
    }),
  );
  return getFirm(ctx, { id: firmId });
}
