import { files } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { UploadRefused, type UploadParts } from '../../files/multipart';
import { newFileKey } from '../../files/storage';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { UPLOAD_MAX_BYTES } from '../../../shared/rules/limits';
import { checkDocumentChange } from './document-change';
import { toFileRecord, type FileRecord } from './file-record';
import { checkUploadFields } from './upload-fields';
import { isAcceptedFileName } from '../../../shared/rules/accepted-file';

/**
 * How the route hands over the upload: it reads the request's parts, streaming the file part into
 * storage under `key` (at most `maxBytes`, a PDF by its bytes), and calls `beforeFile` with the
 * fields sent before the file, so a caller without access is refused before a byte is stored.
 */
export type ReceiveUpload = (options: {
  key: string;
  maxBytes: number;
  beforeFile: (fields: Record<string, string>, partFileName: string) => Promise<void>;
}) => Promise<UploadParts>;

const nameOf = (fields: Record<string, string>, partFileName: string) =>
  fields.fileName !== undefined ? fields.fileName : partFileName;

function assertAcceptableName(name: string): void {
  if (!isAcceptedFileName(name)) throw new UploadRefused('fileName', 'fileName');
}

/**
 * POST /applications/file/upload. The file is streamed into storage (checked as a PDF by its
 * bytes, at most 20 MB); then, under a lock on the application, the checks are made again and the
 * row and its audit event are written. Whatever fails after the bytes are stored removes them, so
 * there is never a row without bytes or bytes without a row.
 */
export async function uploadFile({ db, actor, storage }: ServiceContext, input: { receive: ReceiveUpload }): Promise<FileRecord> {
  const key = newFileKey();
  const { fields, file } = await input.receive({
    key,
    maxBytes: UPLOAD_MAX_BYTES,
    // Fields sent before the file let us refuse before a byte is stored.
    beforeFile: async (early, partFileName) => {
      if (early.applicationId === undefined || early.type === undefined) return;
      const { applicationId, type } = checkUploadFields(early);
      assertAcceptableName(nameOf(early, partFileName));
      await checkDocumentChange(db, actor, applicationId, type, { adding: true });
    },
  });
  try {
    if (!file) throw AppError.validation({ file: 'required' });
    const { applicationId, type } = checkUploadFields(fields);
    const fileName = nameOf(fields, file.partFileName);
    assertAcceptableName(fileName);
    const row = await db.transaction(async (tx) => {
      await checkDocumentChange(tx, actor, applicationId, type, { forUpdate: true, adding: true });
      const [inserted] = await tx
        .insert(files)
        .values({
          applicationId,
          key,
          name: fileName,
          fileName,
          type,
          contentType: 'application/pdf',
          size: file.size,
          uploadedBy: actor.id,
        })
        .returning();
      await recordAudit(tx, {
        actorUserId: actor.id,
        entityType: 'application',
        entityId: applicationId,
        action: 'fileUploaded',
        to: { fileId: inserted!.id, type, fileName, size: file.size },
      });
      return inserted!;
    });
    return toFileRecord(row);
  } catch (error) {
    if (file) await storage.remove(key).catch(() => undefined);
    throw error;
  }
}
