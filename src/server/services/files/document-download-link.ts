import { and, desc, eq, isNull } from 'drizzle-orm';
import { files } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { issueDownloadLink, type DownloadLink } from '../../files/download-tokens';
import { canSeeDocumentType } from '../../policies/files';
import { findApplication } from '../applications/find-application';
import type { ServiceContext } from '../context';

/** GET /applications/{id}/docs/{type}/download: a short-lived link to one file (the latest when no fileId). */
export async function documentDownloadLink(
  { db, actor }: ServiceContext,
  input: { applicationId: number; type: string; fileId: number | undefined },
): Promise<DownloadLink> {
  const { applicationId, type, fileId } = input;
  await findApplication(db, actor, applicationId);
  if (!canSeeDocumentType(actor, type)) throw AppError.notFound();
  const conditions = [eq(files.applicationId, applicationId), eq(files.type, type), isNull(files.deletedAt)];
  if (fileId !== undefined) conditions.push(eq(files.id, fileId));
  const [row] = await db
    .select()
    .from(files)
    .where(and(...conditions))
    .orderBy(desc(files.createdAt), desc(files.id))
    .limit(1);
  if (!row) throw AppError.notFound();
  return issueDownloadLink(db, actor, { kind: 'file', applicationId, fileId: row.id }, row.fileName);
}
