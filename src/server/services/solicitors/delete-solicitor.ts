import { eq, sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { solicitors } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { type ServiceContext } from '../context';
import { recordAudit } from '../audit';
import { casesOf, lockSolicitor } from './solicitor-record';

/**
 * Deletes (soft) a solicitor no active case names; otherwise 400 hasActiveCases ('The solicitor
 * can't be deleted due to having active cases').
 */
export async function deleteSolicitor({ db, actor: user }: ServiceContext, { id }: { id: number }): Promise<void> {
  await db.transaction(async (tx) => {
    const solicitor = await lockSolicitor(tx, id);
    const [row] = await queryRows<{ active: boolean }>(
      tx,
      sql`select exists (${casesOf('s')}) as active from solicitors s where s.id = ${solicitor.id}`,
    );
    if (row?.active) throw new AppError(400, 'hasActiveCases');
    await tx
      .update(solicitors)
      .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(solicitors.id, solicitor.id));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'solicitor',
      entityId: solicitor.id,
      action: 'deleted',
      from: { name: solicitor.name },
      to: { deleted: true },
    });
  });
}
