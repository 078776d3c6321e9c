import { useEffect, useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { api } from '../../../../api/client';
import { useOnline } from '../../../../api/connection';
import { addFiles, duplicateMessage, removeUpload, retryUpload, useUploads, type UploadEntry } from '../../offline/uploads';
import { Button } from '../../../../ui/button';
import { ErrorSlot } from '../../../../ui/field-parts';
import { useConfirm } from '../../../../ui/modal-store';
import { useToast } from '../../../../ui/toast-store';
import { fieldMessages, uploadMessage } from '../../../../../shared/rules/error-codes';
import { isAcceptedFileName } from '../../../../../shared/rules/accepted-file';
import { FORM_E_MAX_FILES } from '../../../../../shared/rules/limits';
import type { components } from '../../../../../shared/api/schema';
import type { DocumentRef } from './asset-values';

type FileRecord = components['schemas']['FileRecord'];

/** Spec section 4: "Confirmations exist for … delete file". */
export const DELETE_FILE_QUESTION = 'Are you sure you want to delete this file?';

export { duplicateMessage };

/** One row of the list: a file chosen on this device, or one the server already holds. */
interface FileRow {
  /** What the step's `documents` lists for it. */
  ref: DocumentRef;
  localId?: string;
  fileId?: number;
  /** The storage key: what deleting a file the device did not upload takes. */
  key?: string;
  fileName: string;
  size?: number;
  status: UploadEntry['status'];
  progress: number;
  error?: string;
}

function formatSize(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function serverId(applicationId: number | string): number | null {
  if (typeof applicationId === 'number') return applicationId;
  return /^\d+$/.test(applicationId) ? Number(applicationId) : null;
}

/**
 * The application's Form E files the server holds (uploaded earlier, perhaps from another device),
 * read when online. Null until known: nothing is concluded from a list that is not there.
 */
function useServerFormEFiles(applicationId: number | string) {
  const id = serverId(applicationId);
  const online = useOnline();
  const [files, setFiles] = useState<FileRecord[] | null>(null);
  useEffect(() => {
    if (id === null || !online) return;
    let current = true;
    api
      .GET('/applications/{id}/docs', { params: { path: { id } } })
      .then(({ data }) => {
        if (current && data) setFiles(data.documents.filter((doc) => doc.type === 'formE').flatMap((doc) => doc.files));
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [id, online]);
  const forget = (fileId: number) => setFiles((list) => list?.filter((file) => file.id !== fileId) ?? null);
  return { files, forget };
}

function refsOf(entry: { localId?: string; fileId?: number }): DocumentRef[] {
  const refs: DocumentRef[] = [];
  if (entry.fileId !== undefined) refs.push(entry.fileId);
  if (entry.localId) refs.push(entry.localId as DocumentRef);
  return refs;
}

/**
 * The list shown: files chosen on this device (with their progress), then files the server holds
 * that this device did not send, then ids the step lists that neither knows yet (still offline).
 */
function mergeRows(
  entries: readonly UploadEntry[],
  serverFiles: readonly FileRecord[] | null,
  documents: readonly DocumentRef[],
): FileRow[] {
  const rows: FileRow[] = entries.map((entry) => ({
    ref: entry.fileId ?? (entry.localId as DocumentRef),
    localId: entry.localId,
    ...(entry.fileId !== undefined ? { fileId: entry.fileId } : {}),
    ...(entry.key !== undefined ? { key: entry.key } : {}),
    fileName: entry.fileName,
    size: entry.size,
    status: entry.status,
    progress: entry.progress,
    ...(entry.error !== undefined ? { error: entry.error } : {}),
  }));
  const known = new Set<number>(entries.flatMap((entry) => (entry.fileId !== undefined ? [entry.fileId] : [])));
  for (const file of serverFiles ?? []) {
    if (known.has(file.id)) continue;
    known.add(file.id);
    rows.push({
      ref: file.id,
      fileId: file.id,
      key: file.key,
      fileName: file.fileName || file.name,
      size: file.size,
      status: 'uploaded',
      progress: 1,
    });
  }
  if (serverFiles === null) {
    for (const ref of documents) {
      if (typeof ref !== 'number' || known.has(ref)) continue;
      rows.push({ ref, fileId: ref, fileName: 'Uploaded file', status: 'uploaded', progress: 1 });
    }
  }
  return rows;
}

/**
 * The step's list after the files changed. It only grows by itself (a new file, a file the server
 * holds) and swaps a device id for the server id once known; a file leaves it when the user deletes
 * it or when its upload failed for good. So a list still loading never empties the step.
 */
function reconcileDocuments(
  documents: readonly DocumentRef[],
  entries: readonly UploadEntry[],
  serverFiles: readonly FileRecord[] | null,
): DocumentRef[] {
  let next = [...documents];
  for (const entry of entries) {
    const refs = refsOf(entry);
    if (entry.status === 'failed') {
      next = next.filter((ref) => !refs.includes(ref));
      continue;
    }
    const wanted: DocumentRef = entry.fileId ?? (entry.localId as DocumentRef);
    const at = next.findIndex((ref) => refs.includes(ref));
    if (at === -1) next.push(wanted);
    else next[at] = wanted;
  }
  for (const file of serverFiles ?? []) {
    if (!next.includes(file.id)) next.push(file.id);
  }
  // One reference per file, in the order chosen.
  return next.filter((ref, index) => next.indexOf(ref) === index).slice(0, FORM_E_MAX_FILES);
}

function sameList(a: readonly DocumentRef[], b: readonly DocumentRef[]): boolean {
  return a.length === b.length && a.every((ref, index) => ref === b[index]);
}

interface Message {
  text: string;
  tone: 'error' | 'info';
}

function stateText(row: FileRow, online: boolean): string {
  switch (row.status) {
    case 'queued':
      return online ? 'Waiting to upload' : 'Waiting for a connection';
    case 'uploading':
      return 'Uploading';
    case 'uploaded':
      return 'Uploaded';
    case 'failed':
      if (row.error && row.error in fieldMessages) return `Failed: ${uploadMessage(row.error, row.fileName, FORM_E_MAX_FILES)}`;
      return row.error ? `Failed: ${row.error}` : 'Failed';
    default:
      return '';
  }
}

interface FormEDocumentsProps {
  applicationId: number | string;
  documents: readonly DocumentRef[];
  /** Always given the latest list: it may be called after an await. */
  onDocumentsChange: (documents: DocumentRef[]) => void;
  label: string;
  hint: string;
  error?: string | null;
  disabled: boolean;
}

/**
 * Form E files: chosen with the file picker (or dropped, on a desktop), checked on the device
 * (offline/uploads.ts: PDF by content, 20 MB), kept on the device while offline and sent on
 * reconnect. Each shows its state and progress, and can be deleted after a confirmation.
 */
export function FormEDocuments({
  applicationId,
  documents,
  onDocumentsChange,
  label,
  hint,
  error,
  disabled,
}: FormEDocumentsProps) {
  const entries = useUploads(applicationId, 'formE');
  const server = useServerFormEFiles(applicationId);
  const online = useOnline();
  const confirm = useConfirm();
  const toast = useToast();
  const [messages, setMessages] = useState<Message[]>([]);
  const [over, setOver] = useState(false);
  const [adding, setAdding] = useState(false);
  const inputId = useId();
  const ids = { hint: `${inputId}-hint`, error: `${inputId}-error` };
  const documentsRef = useRef(documents);
  documentsRef.current = documents;
  const changeRef = useRef(onDocumentsChange);
  changeRef.current = onDocumentsChange;

  const rows = mergeRows(entries, server.files, documents);

  useEffect(() => {
    const next = reconcileDocuments(documentsRef.current, entries, server.files);
    if (!sameList(next, documentsRef.current)) changeRef.current(next);
  }, [entries, server.files]);

  const choose = async (chosen: File[]) => {
    if (chosen.length === 0 || disabled) return;
    const found: Message[] = [];
    const names = new Set(rows.map((row) => row.fileName));
    let room = FORM_E_MAX_FILES - rows.filter((row) => row.status !== 'failed').length;
    const accepted: File[] = [];
    for (const file of chosen) {
      if (!isAcceptedFileName(file.name)) {
        found.push({ text: uploadMessage('fileName', file.name), tone: 'error' });
        continue;
      }
      if (names.has(file.name)) {
        found.push({ text: duplicateMessage(file.name), tone: 'info' });
        continue;
      }
      if (room <= 0) {
        found.push({ text: uploadMessage('tooManyFiles', file.name, FORM_E_MAX_FILES), tone: 'error' });
        continue;
      }
      names.add(file.name);
      room -= 1;
      accepted.push(file);
    }
    setMessages(found);
    if (accepted.length === 0) return;
    setAdding(true);
    try {
      const serverNames = rows.filter((row) => row.localId === undefined).map((row) => row.fileName);
      const refused = await addFiles(applicationId, 'formE', accepted, serverNames);
      setMessages([...found, ...refused.map((text) => ({ text, tone: 'error' as const }))]);
    } catch {
      toast.unhandled();
    } finally {
      setAdding(false);
    }
  };

  const onInput = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    // Cleared, so choosing the same file again (after deleting it) is seen as a change.
    event.target.value = '';
    void choose(chosen);
  };

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (!Array.from(event.dataTransfer.types).includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
    setOver(true);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    void choose(Array.from(event.dataTransfer.files));
  };

  const remove = async (row: FileRow) => {
    if (!(await confirm(DELETE_FILE_QUESTION))) return;
    try {
      if (row.localId) await removeUpload(row.localId);
      else if (row.key) {
        const { error: failure, response } = await api.POST('/applications/file/delete', { body: { fileKey: row.key } });
        // Already gone on the server is what was asked for.
        if (failure && response.status !== 404) throw new Error('delete failed');
      }
      if (row.fileId !== undefined) server.forget(row.fileId);
      const refs = refsOf(row);
      changeRef.current(documentsRef.current.filter((ref) => !refs.includes(ref) && ref !== row.ref));
      setMessages([]);
    } catch {
      toast.unhandled();
    }
  };

  const retry = async (row: FileRow) => {
    if (!row.localId) return;
    try {
      await retryUpload(row.localId);
    } catch {
      toast.unhandled();
    }
  };

  return (
    <section className="step-section uploads" aria-labelledby={`${inputId}-title`}>
      <h2 className="step-section__title" id={`${inputId}-title`}>
        {label}
      </h2>
      <div
        className={over ? 'uploads__zone uploads__zone--over' : 'uploads__zone'}
        onDragOver={onDragOver}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p className="field__hint" id={ids.hint}>
          {hint}
        </p>
        <input
          id={inputId}
          className="visually-hidden uploads__input"
          type="file"
          accept=".pdf,application/pdf"
          multiple
          disabled={disabled || adding}
          aria-describedby={[ids.hint, error ? ids.error : null].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          onChange={onInput}
        />
        <label htmlFor={inputId} className="button button--secondary uploads__choose" aria-disabled={disabled || undefined}>
          Choose files
        </label>
        <p className="uploads__drop-text">or drop PDF files here</p>
      </div>
      <ErrorSlot id={ids.error} error={error} />
      {rows.length > 0 ? (
        <ul className="upload-list" aria-label="Chosen files">
          {rows.map((row) => {
            const percent = Math.round(Math.min(1, Math.max(0, row.progress)) * 100);
            return (
              <li key={String(row.localId ?? row.ref)} className={`upload-item upload-item--${row.status}`}>
                <p className="upload-item__name">
                  {row.fileName} <span className="upload-item__size">{formatSize(row.size)}</span>
                </p>
                <p className="upload-item__state">
                  <span>{stateText(row, online)}</span>
                  {row.status === 'uploading' || row.status === 'queued' ? (
                    <>
                      <progress
                        className="upload-item__progress"
                        max={100}
                        value={percent}
                        aria-label={`Upload of ${row.fileName}`}
                      />
                      <span className="upload-item__percent">{percent}%</span>
                    </>
                  ) : null}
                </p>
                <div className="upload-item__actions">
                  {row.status === 'failed' && row.localId ? (
                    <Button
                      variant="secondary"
                      onClick={() => void retry(row)}
                      disabled={disabled}
                      aria-label={`retry ${row.fileName}`}
                    >
                      retry
                    </Button>
                  ) : null}
                  <Button
                    variant="link"
                    onClick={() => void remove(row)}
                    disabled={disabled}
                    aria-label={`Delete ${row.fileName}`}
                  >
                    Delete
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      ) : null}
      <ul className="uploads__messages" aria-live="polite">
        {messages.map((message) => (
          <li
            key={message.text}
            className={message.tone === 'info' ? 'uploads__message uploads__message--info' : 'uploads__message'}
          >
            {message.text}
          </li>
        ))}
      </ul>
    </section>
  );
}
