import { eq, sql } from 'drizzle-orm';
import { lawyers } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { type ServiceContext } from '../context';
import { recordAudit } from '../audit';
import { softDeleteAccounts } from '../accounts/managed-accounts';
import { lawyersHaveActiveCases, lockLawyer } from './lawyer-record';

/**
 * Deletes a lawyer with no active case (else 400 hasActiveCases): the lawyer and their account
 * are soft-deleted, their sessions end. Their applications keep naming them.
 */
export async function deleteLawyer({ db, actor: user }: ServiceContext, { id }: { id: number }): Promise<void> {
  await db.transaction(async (tx) => {
    // Locked first: an application being created for this lawyer holds a key-share lock on the
    // row, so the check below waits for it and then sees it.
    const lawyer = await lockLawyer(tx, user, id);
    if (await lawyersHaveActiveCases(tx, [lawyer.id])) throw new AppError(400, 'hasActiveCases');
    await tx
      .update(lawyers)
      .set({ deletedAt: sql`now()` })
      .where(eq(lawyers.id, lawyer.id));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'lawyer',
      entityId: lawyer.id,
      action: 'deleted',
      from: { firmId: lawyer.firmId },
      to: { deleted: true },
    });
    await softDeleteAccounts(tx, [lawyer.userId], user.id);
  });
}
