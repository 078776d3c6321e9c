import { and, eq, isNull, sql } from 'drizzle-orm';
import { firms, lawyers, users } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { type ServiceContext } from '../context';
import { recordAudit } from '../audit';
import { lawyersHaveActiveCases } from '../lawyers/lawyer-record';
import { softDeleteAccounts } from '../accounts/managed-accounts';
import { lockFirm } from './firm-record';

/**
 * Deletes a firm whose lawyers have no active case (else 400 hasActiveCases): the firm, its
 * lawyers and every account of the firm (admins and lawyers) are soft-deleted and their sessions
 * end. Applications, loans and audit events that name them stay readable.
 */
export async function deleteFirm({ db, actor: user }: ServiceContext, { id }: { id: number }): Promise<void> {
  await db.transaction(async (tx) => {
    const firm = await lockFirm(tx, id);
    // The lawyers are locked too: an application being created for one of them holds a
    // key-share lock on its row, so the check below waits for it and then sees it.
    const firmLawyers = await tx
      .select({ id: lawyers.id })
      .from(lawyers)
      .where(and(eq(lawyers.firmId, firm.id), isNull(lawyers.deletedAt)))
      .for('update');
    const lawyerIds = firmLawyers.map((l) => l.id);
    if (await lawyersHaveActiveCases(tx, lawyerIds)) throw new AppError(400, 'hasActiveCases');
    await tx
      .update(firms)
      .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(firms.id, firm.id));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'firm',
      entityId: firm.id,
      action: 'deleted',
      from: { firmName: firm.name },
      to: { deleted: true },
    });
    if (lawyerIds.length > 0) {
      await tx
        .update(lawyers)
        .set({ deletedAt: sql`now()` })
        .where(and(eq(lawyers.firmId, firm.id), isNull(lawyers.deletedAt)));
      for (const lawyerId of lawyerIds) {
        await recordAudit(tx, {
          actorUserId: user.id,
          entityType: 'lawyer',
          entityId: lawyerId,
          action: 'deleted',
          from: { firmId: firm.id },
          to: { deleted: true },
        });
      }
    }
    const accounts = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.firmId, firm.id), isNull(users.deletedAt)));
    await softDeleteAccounts(
      tx,
      accounts.map((a) => a.id),
      user.id,
    );
  });
}
