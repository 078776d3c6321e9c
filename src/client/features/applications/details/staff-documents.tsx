import { useId, useState, type ChangeEvent } from 'react';
import type { components } from '../../../../shared/api/schema';
import { isAcceptedFileName } from '../../../../shared/rules/accepted-file';
import { documentTypeLabels, documentTypes, type DocumentType } from '../../../../shared/rules/document-types';
import { uploadMessage } from '../../../../shared/rules/error-codes';
import { enqueue } from '../../../offline/outbox';
import { isOnline } from '../../../api/connection';
import { Button } from '../../../ui/button';
import { SelectField } from '../../../ui/choice-fields';
import { useConfirm } from '../../../ui/modal-store';
import { useToast } from '../../../ui/toast-store';
import type { Application } from '../applications-api';
import { addFiles, removeUpload, retryUpload, useUploads, type UploadEntry } from '../offline/uploads';
import { DELETE_FILE_QUESTION } from '../wizard/steps/documents-upload';
import { downloadDocument } from './download';

type FileRecord = components['schemas']['FileRecord'];

function stateText(entry: UploadEntry): string {
  switch (entry.status) {
    case 'queued':
      return isOnline() ? 'Waiting to upload' : 'Waiting for a connection';
    case 'uploading':
      return 'Uploading';
    case 'uploaded':
      return 'Uploaded';
    case 'failed':
      return entry.error ? `Failed: ${entry.error}` : 'Failed';
    default:
      return '';
  }
}

/** One type's files: the server's, then those chosen on this device not yet among them (with their state). */
function TypeFiles({
  application,
  type,
  removed,
  onRemoved,
}: {
  application: Application;
  type: DocumentType;
  removed: ReadonlySet<number>;
  onRemoved: (fileId: number | undefined) => void;
}) {
  const confirm = useConfirm();
  const toast = useToast();
  const uploads = useUploads(application.id, type);
  const server = application.files.filter((file) => file.type === type && !removed.has(file.id));
  const known = new Set(server.map((file) => file.id));
  const local = uploads.filter((entry) => entry.fileId === undefined || !known.has(entry.fileId));
  if (server.length === 0 && local.length === 0) return null;

  const removeServerFile = async (file: FileRecord) => {
    if (!(await confirm(DELETE_FILE_QUESTION))) return;
    try {
      const mine = uploads.find((entry) => entry.fileId === file.id);
      // Queued: a delete made offline is sent once back online.
      if (mine) await removeUpload(mine.localId);
      else await enqueue({ kind: 'deleteFile', fileKey: file.key });
      onRemoved(file.id);
    } catch {
      toast.unhandled();
    }
  };
  const removeLocal = async (entry: UploadEntry) => {
    if (!(await confirm(DELETE_FILE_QUESTION))) return;
    try {
      await removeUpload(entry.localId);
      onRemoved(entry.fileId);
    } catch {
      toast.unhandled();
    }
  };
  const get = async (file: FileRecord) => {
    if (!(await downloadDocument(application.id, file.type, file.id, file.fileName || file.name))) toast.unhandled();
  };

  return (
    <div className="details-files__group">
      <h3 className="details-files__type">{documentTypeLabels[type]}</h3>
      <ul className="details-files__list">
        {server.map((file) => (
          <li key={file.id} className="details-file">
            <span className="details-file__name">{file.fileName || file.name}</span>
            <span className="details-file__actions">
              <Button variant="secondary" aria-label={`download ${file.fileName || file.name}`} onClick={() => void get(file)}>
                download
              </Button>
              <Button
                variant="link"
                aria-label={`delete file ${file.fileName || file.name}`}
                onClick={() => void removeServerFile(file)}
              >
                delete file
              </Button>
            </span>
          </li>
        ))}
        {local.map((entry) => {
          const percent = Math.round(Math.min(1, Math.max(0, entry.progress)) * 100);
          return (
            <li key={entry.localId} className={`details-file details-file--${entry.status}`}>
              <span className="details-file__name">{entry.fileName}</span>
              <span className="details-file__state">
                {stateText(entry)}
                {entry.status === 'uploading' || entry.status === 'queued' ? (
                  <progress max={100} value={percent} aria-label={`Upload of ${entry.fileName}`} />
                ) : null}
              </span>
              <span className="details-file__actions">
                {entry.status === 'failed' ? (
                  <Button
                    variant="secondary"
                    aria-label={`retry ${entry.fileName}`}
                    onClick={() => void retryUpload(entry.localId).catch(() => toast.unhandled())}
                  >
                    retry
                  </Button>
                ) : null}
                <Button variant="link" aria-label={`delete file ${entry.fileName}`} onClick={() => void removeLocal(entry)}>
                  delete file
                </Button>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * Staff's documents in the review and prepare states (the record's `changeDocuments`): choose the
 * type, then PDF files; each is kept on the device and sent by the documents step's own upload
 * mechanism (offline/uploads.ts), showing its uploading state; 'delete file' asks first.
 */
export function StaffDocuments({ application, changeable }: { application: Application; changeable: readonly DocumentType[] }) {
  const toast = useToast();
  const inputId = useId();
  const [type, setType] = useState<string>(changeable.includes('solicitorLetter') ? 'solicitorLetter' : (changeable[0] ?? ''));
  const [messages, setMessages] = useState<string[]>([]);
  const [adding, setAdding] = useState(false);
  const [removed, setRemoved] = useState<ReadonlySet<number>>(new Set());
  const chosenType = changeable.find((each) => each === type);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (!chosenType || files.length === 0) return;
    const refusedNames = files.filter((file) => !isAcceptedFileName(file.name));
    const accepted = files.filter((file) => isAcceptedFileName(file.name));
    setAdding(true);
    try {
      const existing = application.files.filter((file) => file.type === chosenType).map((file) => file.fileName || file.name);
      const refused = accepted.length > 0 ? await addFiles(application.id, chosenType, accepted, existing) : [];
      setMessages([...refusedNames.map((file) => uploadMessage('fileName', file.name)), ...refused]);
    } catch {
      toast.unhandled();
    } finally {
      setAdding(false);
    }
  };

  const types = documentTypes.filter((each) => changeable.includes(each) || application.files.some((f) => f.type === each));
  return (
    <div className="details-files">
      <div className="details-upload">
        <SelectField
          label="Document type"
          value={type}
          onValueChange={setType}
          options={changeable.map((each) => ({ value: each, label: documentTypeLabels[each] }))}
        />
        <input
          id={inputId}
          className="visually-hidden"
          type="file"
          accept=".pdf,application/pdf"
          multiple
          disabled={!chosenType || adding}
          onChange={(event) => void choose(event)}
        />
        <label
          htmlFor={inputId}
          className="button button--secondary details-upload__choose"
          aria-disabled={!chosenType || undefined}
        >
          Choose files
        </label>
      </div>
      <ul className="details-upload__messages" aria-live="polite">
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
      {types.map((each) => (
        <TypeFiles
          key={each}
          application={application}
          type={each}
          removed={removed}
          onRemoved={(fileId) => {
            if (fileId !== undefined) setRemoved((current) => new Set([...current, fileId]));
          }}
        />
      ))}
    </div>
  );
}
