import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { files } from '../../db/schema';
import { visibleDocumentTypes, type DocumentType } from '../../policies/files';
import type { components } from '../../../shared/api/schema';

export type FileRecord = components['schemas']['FileRecord'];
export type FileRow = typeof files.$inferSelect;

/** The wire form of a stored file; `url` is the authenticated download call for it. */
export function toFileRecord(row: FileRow): FileRecord {
  return {
    id: row.id,
    name: row.name,
    url: `/api/applications/${row.applicationId}/docs/${row.type}/download?fileId=${row.id}`,
    key: row.key,
    fileName: row.fileName,
    type: row.type as DocumentType,
    size: row.size,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/**
 * The application's files the user may see (for Application.files): not deleted, and without the
 * staff-only types for other roles. The caller has already checked the application is in scope.
 */
export async function listApplicationFiles(
  db: Database,
  user: Pick<SessionUser, 'role'>,
  applicationId: number,
): Promise<FileRecord[]> {
  const rows = await db
    .select()
    .from(files)
    .where(
      and(eq(files.applicationId, applicationId), isNull(files.deletedAt), inArray(files.type, [...visibleDocumentTypes(user)])),
    )
    .orderBy(asc(files.createdAt), asc(files.id));
  return rows.map(toFileRecord);
}

/** How many live (not deleted) files of this type the application has. */
export async function liveFileCount(db: Database, applicationId: number, type: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(files)
    .where(and(eq(files.applicationId, applicationId), eq(files.type, type), isNull(files.deletedAt)));
  return row?.n ?? 0;
}
