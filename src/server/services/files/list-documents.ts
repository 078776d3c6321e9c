import { eq } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { documentReviews } from '../../db/schema';
import { visibleDocumentTypes } from '../../policies/files';
import { findApplication } from '../applications/find-application';
import type { ServiceContext } from '../context';
import type { components } from '../../../shared/api/schema';
import type { DocumentType } from '../../../shared/rules/document-types';
import { listApplicationFiles, type FileRecord } from './file-record';

export type ApplicationDocument = components['schemas']['ApplicationDocument'];
type DocumentState = ApplicationDocument['state'];

/**
 * One type's entry: the state staff set (POST /applications/docs/state), or, where none is set,
 * `received` when the type has files and `pending` when it has none (docs/decisions.md 074, 278).
 */
function entryOf(type: DocumentType, records: readonly FileRecord[], stored: ReadonlyMap<string, string>): ApplicationDocument {
  const own = records.filter((r) => r.type === type);
  const state = (stored.get(type) as DocumentState | undefined) ?? (own.length > 0 ? 'received' : 'pending');
  return { type, state, files: own };
}

async function storedStates(db: Database, applicationId: number): Promise<Map<string, string>> {
  const rows = await db
    .select({ type: documentReviews.type, state: documentReviews.state })
    .from(documentReviews)
    .where(eq(documentReviews.applicationId, applicationId));
  return new Map(rows.map((row) => [row.type, row.state]));
}

/** The entry of one type the caller may see, of an application already checked to be in scope. */
export async function documentEntry(
  db: Database,
  actor: SessionUser,
  applicationId: number,
  type: DocumentType,
): Promise<ApplicationDocument> {
  const [records, stored] = await Promise.all([listApplicationFiles(db, actor, applicationId), storedStates(db, applicationId)]);
  return entryOf(type, records, stored);
}

/**
 * GET /applications/{id}/docs: one entry per document type the caller may see, in the spec's
 * order, with its review state and its files (the two staff-only types only for staff).
 */
export async function listDocuments(
  { db, actor }: ServiceContext,
  input: { applicationId: number },
): Promise<{ documents: ApplicationDocument[] }> {
  const application = await findApplication(db, actor, input.applicationId);
  const [records, stored] = await Promise.all([
    listApplicationFiles(db, actor, application.id),
    storedStates(db, application.id),
  ]);
  return { documents: visibleDocumentTypes(actor).map((type) => entryOf(type, records, stored)) };
}
