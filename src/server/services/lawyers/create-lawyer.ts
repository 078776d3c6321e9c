import { and, eq, isNull } from 'drizzle-orm';
import { firms, lawyers } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { type ServiceContext } from '../context';
import { assertCan } from '../../policies/assert-can';
import * as lawyerPolicy from '../../policies/lawyers';
import { lawyerCreateSchema } from '../../../shared/schemas/administration';
import { inviteUser } from '../accounts/invite-user';
import { recordAudit } from '../audit';
import { assertLoginFree, insertInvitedAccount, parseForm, withLoginGuard } from '../accounts/managed-accounts';
import { getLawyer } from './get-lawyer';

/**
 * Adds a lawyer under a firm and invites them (/sign-up-lawyer/{uuid}), in one transaction. A
 * firm admin adds only to their own firm (another firm is 404); staff name any live firm.
 */
export async function createLawyer(
  ctx: ServiceContext,
  body: { firstName: string; surname: string; login: string; firmId: number },
) {
  const { db, config, actor: user } = ctx;
  const input = parseForm(lawyerCreateSchema, body);
  assertCan(lawyerPolicy.can(user, 'manage', { firmId: body.firmId }), 'notFound');
  const lawyerId = await withLoginGuard(() =>
    db.transaction(async (tx) => {
      // A firm being deleted meanwhile: its row is locked by the delete, and is gone after it.
      const [firm] = await tx
        .select({ id: firms.id })
        .from(firms)
        .where(and(eq(firms.id, body.firmId), isNull(firms.deletedAt)))
        .for('share');
      if (!firm) throw AppError.notFound();
      await assertLoginFree(tx, input.login);
      const account = await insertInvitedAccount(
        tx,
        { email: input.login, role: 'lawyer', firstName: input.firstName, surname: input.surname, firmId: firm.id },
        user.id,
      );
      const [lawyer] = await tx.insert(lawyers).values({ userId: account.id, firmId: firm.id }).returning({ id: lawyers.id });
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'lawyer',
        entityId: lawyer!.id,
        action: 'created',
        to: { userId: account.id, firmId: firm.id },
      });
      await inviteUser(tx, config, { userId: account.id, email: input.login, kind: 'lawyer', actorUserId: user.id });
      return lawyer!.id;
    }),
  );
  return getLawyer(ctx, { id: lawyerId });
}
