import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { can } from '../../policies/dump';
import { isRole } from '../../../shared/rules/permissions';
import { recordAudit } from '../audit';
import type { PublicContext } from '../context';
import type { Download } from '../files/download';
import { excludedTables, extractTables } from './extract-tables';
import { extractZip } from './extract-zip';

/**
 * GET /files/{token} of a database extract link: the ZIP, streamed as it is made. The account that
 * asked must still be staff (the link outlives no session, but a role could change in between).
 * The extract is audited before its first byte: who, when, which tables.
 */
export async function openDatabaseExtract(
  { db, logError }: PublicContext,
  input: { userId: number; fileName: string },
): Promise<Download> {
  const [user] = await db.select({ role: users.role }).from(users).where(eq(users.id, input.userId)).limit(1);
  if (!user || !isRole(user.role) || !can({ role: user.role }, 'extract')) throw AppError.notFound();
  const extractedAt = new Date();
  await recordAudit(db, {
    actorUserId: input.userId,
    entityType: 'database',
    entityId: 'extract',
    action: 'extracted',
    to: {
      fileName: input.fileName,
      tables: extractTables.length,
      excludedTables: Object.keys(excludedTables),
    },
  });
  const body = Readable.from(extractZip(db, { extractedAt, extractedBy: input.userId }), { objectMode: false });
  // The answer has begun (200) by the time a batch could fail: the download breaks off, and its ZIP
  // has no directory, so no one mistakes it for a whole extract. The operator sees why here.
  body.on('error', (error) => logError('the database extract failed while streaming', error));
  return { body, contentType: 'application/zip', fileName: input.fileName, disposition: 'attachment' };
}
