import { errorMessages, uploadMessage } from '../../../../shared/rules/error-codes';
import type { DocumentType } from '../../../../shared/rules/document-types';
import { PDF_MAGIC } from '../../../../shared/rules/accepted-file';
import { FORM_E_MAX_FILES, UPLOAD_MAX_BYTES, UPLOAD_MAX_FILES } from '../../../../shared/rules/limits';
import type { FileStatus } from '../../../offline/db';
import { forgetLocalId } from '../../../offline/local-ids';
import { enqueue, removeQueued } from '../../../offline/outbox';
import { reportStorageError } from '../../../offline/persist';
import { requireUserId } from '../../../session/current-session';
import {
  addStoredFile,
  deleteStoredFile,
  patchStoredFile,
  readStoredFile,
  readStoredFiles,
  useStoredFiles,
} from '../../../offline/stored-files';
import { newLocalUploadId } from './application-ids';
import './upload-file-mutation';
import './delete-file-mutation';

/**
 * Files chosen for an application. Each is kept on the device (its bytes in IndexedDB, so a file
 * chosen offline survives a reload) and queued as an `uploadFile` write; the engine sends it with
 * XMLHttpRequest for its progress. Until it is uploaded the file is named `upload-<uuid>`, which a
 * step's `documents` list may hold: the save is sent with the file's id once it has one.
 */

/** Form E on the documents step; any type on staff's review screen (decision 304). */
export type UploadDocumentType = DocumentType;

export interface UploadEntry {
  localId: string;
  fileName: string;
  size: number;
  status: FileStatus;
  /** 0..1 while uploading; 1 once uploaded. */
  progress: number;
  fileId?: number;
  key?: string;
  /** Why it failed (names the file), in the spec's words. */
  error?: string;
}

function maxFilesFor(type: UploadDocumentType): number {
  return type === 'formE' ? FORM_E_MAX_FILES : UPLOAD_MAX_FILES;
}

/** Strictly increasing creation times: files chosen together keep their order. */
let lastCreatedAt = 0;
function nextCreatedAt(): number {
  lastCreatedAt = Math.max(Date.now(), lastCreatedAt + 1);
  return lastCreatedAt;
}

/** The bytes as an ArrayBuffer of this realm (what IndexedDB stores in every browser). */
async function readBytes(file: Blob): Promise<ArrayBuffer> {
  return new Uint8Array(await readRaw(file)).slice().buffer;
}

async function readRaw(file: Blob): Promise<ArrayBuffer> {
  if (typeof file.arrayBuffer === 'function') return file.arrayBuffer();
  // Older engines (and jsdom) without Blob.arrayBuffer.
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsArrayBuffer(file);
  });
}

/** A PDF by its content (the name and the browser's type can say anything). */
export async function isPdf(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await readBytes(file.slice(0, PDF_MAGIC.length)));
  return String.fromCharCode(...head) === PDF_MAGIC;
}

/** The device's files for this application and type, oldest first, for the signed-in user. */
export function useUploads(applicationId: number | string, type: UploadDocumentType): UploadEntry[] {
  const rows = useStoredFiles(String(applicationId)).filter((row) => row.type === type);
  return rows.map(({ localId, fileName, size, status, progress, fileId, key, error }) => ({
    localId,
    fileName,
    size,
    status,
    progress,
    ...(fileId === undefined ? {} : { fileId }),
    ...(key === undefined ? {} : { key }),
    ...(error === undefined ? {} : { error }),
  }));
}

/**
 * Keeps the chosen files and queues their uploads. Duplicates by name (among this application's
 * files on the device and `existingNames`, e.g. the files the server already has) are ignored.
 * Resolves with one message per file refused here (not a PDF, too large, too many), naming it.
 */
/** Our wording: the spec ignores duplicates by name and says nothing (docs/decisions.md). */
export function duplicateMessage(fileName: string): string {
  return `${fileName}: a file with this name has already been added`;
}

export async function addFiles(
  applicationId: number | string,
  type: UploadDocumentType,
  files: readonly File[],
  existingNames: readonly string[] = [],
): Promise<string[]> {
  const userId = requireUserId();
  const stored = (await readStoredFiles(userId, String(applicationId))).filter(
    (row) => row.type === type && row.status !== 'failed',
  );
  const names = new Set([...stored.map((row) => row.fileName), ...existingNames]);
  const messages: string[] = [];
  for (const file of files) {
    if (names.has(file.name)) {
      // Also caught by the screen; told here too for a file chosen again before the list caught up.
      messages.push(duplicateMessage(file.name));
      continue;
    }
    if (file.size > UPLOAD_MAX_BYTES) {
      messages.push(uploadMessage('fileTooLarge', file.name));
      continue;
    }
    if (!(await isPdf(file))) {
      messages.push(uploadMessage('fileType', file.name));
      continue;
    }
    if (names.size >= maxFilesFor(type)) {
      messages.push(uploadMessage('tooManyFiles', file.name, maxFilesFor(type)));
      continue;
    }
    names.add(file.name);
    const localId = newLocalUploadId();
    try {
      await addStoredFile({
        localId,
        userId,
        owner: String(applicationId),
        type,
        fileName: file.name,
        mimeType: file.type || 'application/pdf',
        size: file.size,
        data: await readBytes(file),
        status: 'queued',
        progress: 0,
        createdAt: nextCreatedAt(),
      });
    } catch (error) {
      reportStorageError(error);
      messages.push(errorMessages.unhandled);
      continue;
    }
    await enqueue({ kind: 'uploadFile', localId });
  }
  return messages;
}

/**
 * Removes a file: one not sent yet is simply forgotten (its queued upload too); one uploaded is
 * deleted on the server (queued, so this works offline as well).
 */
export async function removeUpload(localId: string): Promise<void> {
  const userId = requireUserId();
  const row = await readStoredFile(userId, localId);
  if (!row) return;
  await deleteStoredFile(localId);
  await forgetLocalId(localId);
  if (row.status === 'uploaded' && row.key) {
    await enqueue({ kind: 'deleteFile', fileKey: row.key });
    return;
  }
  await removeQueued(
    (mutation) => mutation.kind === 'uploadFile' && (mutation.payload as { localId?: unknown }).localId === localId,
  );
}

/**
 * Sends a failed upload again: its bytes are still on the device.
 */
export async function retryUpload(localId: string): Promise<void> {
  const row = await readStoredFile(requireUserId(), localId);
  if (!row || row.status !== 'failed') return;
  await patchStoredFile(localId, { status: 'queued', progress: 0, error: undefined });
  await enqueue({ kind: 'uploadFile', localId });
}
