import * as v from 'valibot';
import { mapLocalId } from '../../../offline/local-ids';
import { FILES_SCOPE } from './application-ids';
import { registerMutation } from '../../../offline/mutation-registry';
import { sendMultipart } from '../../../offline/multipart-upload';
import type { SendOutcome } from '../../../offline/send-outcome';
import { patchStoredFile, readStoredFile, registerLegacyOwnerField } from '../../../offline/stored-files';
import { reportStorageError } from '../../../offline/persist';
import { uploadErrorText } from './upload-error-text';

// Files chosen offline before the store named a file's owner `owner` were stored under the
// application they belong to; the store's upgrade moves the field when it opens.
registerLegacyOwnerField('applicationId');

/** The type of a file stored before rows recorded one: only Form E PDFs were stored then. */
const PDF_TYPE = 'application/pdf';

/** Upload progress is written to the device at most this often per file. */
const PROGRESS_STEP = 0.05;

const payload = v.object({ localId: v.string() });
export type UploadFilePayload = v.InferOutput<typeof payload>;

declare module '../../../offline/mutation-registry' {
  interface MutationKinds {
    uploadFile: UploadFilePayload;
  }
}

function patch(localId: string, change: Parameters<typeof patchStoredFile>[1]): Promise<void> {
  return patchStoredFile(localId, change).catch((error: unknown) => reportStorageError(error));
}

async function sendUpload(
  localId: string,
  userId: number,
  resolveId: (id: string) => Promise<number>,
  idempotencyKey: string,
): Promise<SendOutcome> {
  const row = await readStoredFile(userId, localId);
  // Removed before it was sent: nothing to do.
  if (!row) return { type: 'done', body: undefined };
  const applicationId = await resolveId(row.owner);
  if (!row.data) return { type: 'rejected', error: 'unhandled' };
  await patch(localId, { status: 'uploading', progress: 0, error: undefined });
  const form = new FormData();
  form.append('file', new Blob([row.data], { type: row.mimeType ?? PDF_TYPE }), row.fileName);
  form.append('fileName', row.fileName);
  form.append('applicationId', String(applicationId));
  form.append('type', row.type);
  let written = 0;
  return sendMultipart('/applications/file/upload', form, idempotencyKey, (progress) => {
    if (progress < 1 && progress - written < PROGRESS_STEP) return;
    written = progress;
    void patch(localId, { progress, status: 'uploading' });
  });
}

export const uploadFileMutation = registerMutation({
  kind: 'uploadFile',
  payload,
  // Files go one after another (they share the connection, and a delete follows its upload).
  scope: () => FILES_SCOPE,
  send: async ({ localId }, ctx) => {
    let outcome: SendOutcome = { type: 'retry' };
    try {
      outcome = await sendUpload(localId, ctx.userId, ctx.resolveId, ctx.idempotencyKey);
      return outcome;
    } finally {
      // Not sent after all (no connection, waiting for its application): back in the queue.
      if (outcome.type !== 'done' && outcome.type !== 'rejected') await patch(localId, { status: 'queued', progress: 0 });
    }
  },
  onDone: async ({ localId }, body, ctx) => {
    const file = body as { id?: unknown; key?: unknown } | undefined;
    if (typeof file?.id !== 'number' || typeof file.key !== 'string') return;
    await mapLocalId(ctx.userId, localId, file.id, file.key);
    const upload = await readStoredFile(ctx.userId, localId);
    if (upload) {
      await patchStoredFile(localId, {
        data: undefined,
        error: undefined,
        status: 'uploaded',
        progress: 1,
        fileId: file.id,
        key: file.key,
      });
    } else {
      // Removed while it was being sent: remove it from the server too.
      await ctx.enqueue('deleteFile', { fileKey: file.key });
    }
  },
  onRejected: async ({ localId }, { error, fields }, ctx) => {
    const upload = await readStoredFile(ctx.userId, localId);
    if (upload)
      await patchStoredFile(localId, {
        status: 'failed',
        progress: 0,
        error: uploadErrorText(fields.file ?? error, upload.fileName),
      });
  },
});
