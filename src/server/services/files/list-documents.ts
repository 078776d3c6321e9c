import { visibleDocumentTypes } from '../../policies/files';
import { findApplication } from '../applications/find-application';
import type { ServiceContext } from '../context';
import type { components } from '../../../shared/api/schema';
import { listApplicationFiles } from './file-record';

type ApplicationDocument = components['schemas']['ApplicationDocument'];

/** GET /applications/{id}/docs: one entry per document type the caller may see, in the spec's order. */
export async function listDocuments(
  { db, actor }: ServiceContext,
  input: { applicationId: number },
): Promise<{ documents: ApplicationDocument[] }> {
  const application = await findApplication(db, actor, input.applicationId);
  const records = await listApplicationFiles(db, actor, application.id);
  return {
    documents: visibleDocumentTypes(actor).map((type) => {
      const own = records.filter((r) => r.type === type);
      // Review states are not stored yet (POST /applications/docs/state): a type with files is received.
      return { type, state: own.length > 0 ? 'received' : 'pending', files: own };
    }),
  };
}
