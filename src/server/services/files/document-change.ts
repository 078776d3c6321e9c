import { and, eq, isNull, sql } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { files } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { UploadRefused } from '../../files/multipart';
import { assertCan } from '../../policies/assert-can';
import * as filePolicy from '../../policies/files';
import { findApplication, type ApplicationRow } from '../applications/find-application';
import { FORM_E_MAX_FILES, UPLOAD_MAX_FILES } from '../../../shared/rules/limits';

/** 409 notEditable unless the application's status lets this caller change its documents now. */
function assertDocumentsChangeable(actor: SessionUser, application: Pick<ApplicationRow, 'status'>): void {
  if (!filePolicy.documentsChangeableIn(actor, application.status)) throw new AppError(409, 'notEditable');
}

/** 400 tooManyFiles when one more file would pass the application's limits (20 in all, 10 Form E). */
async function assertRoomForOneMore(db: Database, applicationId: number, type: string): Promise<void> {
  const [counts] = await db
    .select({ total: sql<number>`count(*)::int`, sameType: sql<number>`(count(*) filter (where ${files.type} = ${type}))::int` })
    .from(files)
    .where(and(eq(files.applicationId, applicationId), isNull(files.deletedAt)));
  if ((counts?.total ?? 0) >= UPLOAD_MAX_FILES || (type === 'formE' && (counts?.sameType ?? 0) >= FORM_E_MAX_FILES))
    throw new UploadRefused('tooManyFiles');
}

/**
 * The checks of a change to an application's documents, in the order of refusals: 404 out of scope,
 * 403 a type the caller may never change, 409 a status that does not allow it, 400 no room for one
 * more. Made before the bytes arrive and again under the application's row lock (`forUpdate`).
 */
export async function checkDocumentChange(
  db: Database,
  actor: SessionUser,
  applicationId: number,
  type: string,
  options: { forUpdate?: boolean; adding?: boolean },
): Promise<ApplicationRow> {
  const application = await findApplication(db, actor, applicationId, { forUpdate: options.forUpdate });
  assertCan(filePolicy.can(actor, 'changeDocument', { type }));
  assertDocumentsChangeable(actor, application);
  if (options.adding) await assertRoomForOneMore(db, applicationId, type);
  return application;
}
