import { inArray } from 'drizzle-orm';
import { files } from '../../db/schema';
import { sha256Hex } from '../../esign/builtin';
import { issueDownloadLink } from '../../files/download-tokens';
import { AppError } from '../../errors/app-error';
import type { ServiceContext } from '../context';
import { findApplication } from '../applications/find-application';
import * as applicationPolicy from '../../policies/applications';
import { assertCan } from '../../policies/assert-can';
import { toFileRecord } from '../files/file-record';
import type { components } from '../../../shared/api/schema';
import { envelopeDocumentsOf, findSignedEnvelope, readStoredBytes } from './envelope-record';

type SignedDocuments = components['schemas']['SignedDocuments'];

/**
 * GET /docusign/signedDocs: the application's signed envelope and its signed documents, each with a
 * download link and a tamper check: the stored file's SHA-256 now against the one recorded at
 * signing (`matches` false when the bytes changed or are gone). Staff, the application's lawyer and
 * its client (docs/decisions.md 449; others 404 by scope); 404 before signing.
 */
export async function getSignedDocuments(ctx: ServiceContext, input: { applicationId: number }): Promise<SignedDocuments> {
  const { db, actor, storage } = ctx;
  const application = await findApplication(db, actor, input.applicationId);
  assertCan(applicationPolicy.can(actor, 'readSignedDocuments', application));
  const envelope = await findSignedEnvelope(db, application.id);
  if (!envelope || !envelope.signedAt) throw AppError.notFound();
  const documents = await envelopeDocumentsOf(db, envelope.id);
  const signedIds = documents.map((d) => d.signedFileId).filter((id): id is number => id !== null);
  const signedFiles = new Map(
    (signedIds.length > 0 ? await db.select().from(files).where(inArray(files.id, signedIds)) : []).map((f) => [f.id, f]),
  );
  const out: SignedDocuments['documents'] = [];
  for (const document of documents) {
    const file = document.signedFileId === null ? undefined : signedFiles.get(document.signedFileId);
    if (!file || !document.signedSha256) continue;
    const bytes = await readStoredBytes(storage, file.key);
    out.push({
      ...toFileRecord(file),
      download: await issueDownloadLink(
        db,
        actor,
        { kind: 'file', applicationId: application.id, fileId: file.id },
        file.fileName,
      ),
      sha256: document.signedSha256,
      matches: bytes !== undefined && sha256Hex(bytes) === document.signedSha256,
    });
  }
  return { envelopId: envelope.id, signedAt: envelope.signedAt.toISOString(), documents: out };
}
