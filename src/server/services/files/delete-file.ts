import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import { applications, files } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { canSeeDocumentType } from '../../policies/files';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { checkDocumentChange } from './document-change';
import { liveFileCount } from './file-record';
import { certificateOfAdviceType } from '../../../shared/rules/document-types';

/**
 * 'Certificate of independent advice uploaded' holds only while a Certificate of Advice is there:
 * deleting the last one unticks it, audited (docs/decisions.md 271).
 */
async function untickCertificateWhenGone(db: Database, actorUserId: number, applicationId: number, type: string) {
  if (type !== certificateOfAdviceType || (await liveFileCount(db, applicationId, type)) > 0) return;
  const [changed] = await db
    .update(applications)
    .set({ independentAdvice: false, updatedAt: sql`now()` })
    .where(and(eq(applications.id, applicationId), eq(applications.independentAdvice, true)))
    .returning({ id: applications.id });
  if (changed)
    await recordAudit(db, {
      actorUserId,
      entityType: 'application',
      entityId: applicationId,
      action: 'checkChanged',
      from: { independentAdvice: true },
      to: { independentAdvice: false, because: 'certificateDeleted' },
    });
}

/**
 * POST /applications/file/delete. The row is kept with deleted_at (the history names it); the
 * bytes are removed once the change has committed (docs/decisions.md).
 */
export async function deleteFile({ db, actor, storage, logError }: ServiceContext, input: { fileKey: string }): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(files)
      .where(and(eq(files.key, input.fileKey), isNull(files.deletedAt)))
      .limit(1);
    if (!row || row.applicationId === null || !canSeeDocumentType(actor, row.type)) throw AppError.notFound();
    await checkDocumentChange(tx, actor, row.applicationId, row.type, { forUpdate: true });
    const [updated] = await tx
      .update(files)
      .set({ deletedAt: sql`now()` })
      .where(and(eq(files.id, row.id), isNull(files.deletedAt)))
      .returning({ id: files.id });
    if (!updated) throw AppError.notFound();
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'application',
      entityId: row.applicationId,
      action: 'fileDeleted',
      from: { fileId: row.id, type: row.type, fileName: row.fileName, size: row.size },
    });
    await untickCertificateWhenGone(tx, actor.id, row.applicationId, row.type);
    return row;
  });
  await storage.remove(removed.key).catch((err) => logError('removing a deleted file’s bytes failed', err));
}
