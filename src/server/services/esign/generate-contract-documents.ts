import { and, eq, inArray, isNotNull, isNull, notInArray, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { envelopeDocuments, files } from '../../db/schema';
import { sha256Hex } from '../../esign/builtin';
import type { EnvelopeDocumentInput } from '../../esign/provider';
import { newFileKey, type FileStorage } from '../../files/storage';
import { AppError } from '../../errors/app-error';
import { loadContractData } from '../../pdf/contract/contract-data';
import { runPdfJob } from '../../pdf/render-in-worker';
import { contractDocumentTypes, documentTypeLabels } from '../../../shared/rules/document-types';

/**
 * (Re)makes the contract set of an application (docs/decisions.md: 280): the six documents laid out
 * in the PDF worker from the application's current data, stored as its files with their document
 * types, replacing the earlier unsigned versions (soft-deleted; a signed copy is never touched).
 * Called when staff accept an application and again when the envelope is prepared. 404 for a
 * missing application; 400 `validation` { loanAmount: 'required' } while no loan amount is set.
 * Each document comes with its bytes, for a provider the envelope is sent to.
 */
export async function generateContractDocuments(
  db: Database,
  storage: FileStorage,
  config: Config,
  applicationId: number,
  options: { uploadedBy?: number | null } = {},
): Promise<(EnvelopeDocumentInput & { pdf: Uint8Array })[]> {
  const data = await loadContractData(db, config, applicationId);
  if (!data) throw AppError.notFound();
  const { loanAmountPence } = data;
  if (loanAmountPence === null || loanAmountPence <= 0) throw AppError.validation({ loanAmount: 'required' });
  const pdfs = await runPdfJob(
    { kind: 'contract', data: { ...data, loanAmountPence } },
    { timeoutMs: config.timeouts.pdfTimeoutMs },
  );

  const stored = contractDocumentTypes.map((type, i) => ({ type, pdf: pdfs[i]!, key: newFileKey() }));
  for (const file of stored) await storage.put(file.key, file.pdf);

  return db.transaction(async (tx) => {
    const signedCopies = tx
      .select({ id: envelopeDocuments.signedFileId })
      .from(envelopeDocuments)
      .where(isNotNull(envelopeDocuments.signedFileId));
    await tx
      .update(files)
      .set({ deletedAt: sql`now()` })
      .where(
        and(
          eq(files.applicationId, applicationId),
          inArray(files.type, [...contractDocumentTypes]),
          isNull(files.deletedAt),
          notInArray(files.id, signedCopies),
        ),
      );
    const documents: (EnvelopeDocumentInput & { pdf: Uint8Array })[] = [];
    for (const file of stored) {
      const title = documentTypeLabels[file.type];
      const [row] = await tx
        .insert(files)
        .values({
          applicationId,
          key: file.key,
          name: title,
          fileName: `${title} ${data.applicationRef}.pdf`,
          type: file.type,
          contentType: 'application/pdf',
          size: file.pdf.length,
          uploadedBy: options.uploadedBy ?? null,
        })
        .returning({ id: files.id });
      documents.push({ type: file.type, title, fileId: row!.id, sha256: sha256Hex(file.pdf), pdf: file.pdf });
    }
    return documents;
  });
}
