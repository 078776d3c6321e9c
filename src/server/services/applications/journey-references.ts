import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import { files, solicitors } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import type { JourneyData } from '../../../shared/journey/steps';

/**
 * The Form E documents a step names must be this application's own live Form E files: the list
 * proves "a document is required", so an id from elsewhere (or a deleted file) is refused.
 */
export async function checkDocuments(db: Database, applicationId: number, data: JourneyData['asset']): Promise<void> {
  const named = new Set(data.documents ?? []).size;
  if (named > 0 && (await liveDocumentCount(db, applicationId, data)) !== named)
    throw AppError.validation({ documents: 'invalid' });
}

/** How many of the documents a step names are this application's own live Form E files. */
export async function liveDocumentCount(db: Database, applicationId: number, data: JourneyData['asset']): Promise<number> {
  const ids = [...new Set(data.documents ?? [])];
  if (ids.length === 0) return 0;
  const found = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.applicationId, applicationId), eq(files.type, 'formE'), isNull(files.deletedAt), inArray(files.id, ids)));
  return found.length;
}

/**
 * The solicitor an independent step names must be a live solicitor (the list the form offers).
 * The row is share-locked: a delete of that solicitor waits for this save and then sees its case,
 * or this save waits for the delete and is refused.
 */
export async function checkSolicitor(db: Database, data: JourneyData['independent']): Promise<void> {
  const id = data.solicitorId;
  if (id === undefined || id === null) return;
  const [live] = await db
    .select({ id: solicitors.id })
    .from(solicitors)
    .where(and(eq(solicitors.id, id), isNull(solicitors.deletedAt)))
    .for('share');
  if (!live) throw AppError.validation({ solicitorId: 'invalid' });
}
