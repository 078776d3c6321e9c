import { useState } from 'react';
import type { components } from '../../../../shared/api/schema';
import { documentTypeLabels, documentTypes } from '../../../../shared/rules/document-types';
import { Button } from '../../../ui/button';
import { useToast } from '../../../ui/toast-store';
import { downloadDocument } from './download';

type FileRecord = components['schemas']['FileRecord'];

/**
 * Files by document type, each downloadable; read only. The server lists only the types the caller
 * may see (the two staff-only types never reach the client or the lawyer).
 */
export function FileList({ applicationId, files }: { applicationId: number; files: readonly FileRecord[] }) {
  const toast = useToast();
  const [busy, setBusy] = useState<number | null>(null);
  const get = async (file: FileRecord) => {
    if (busy !== null) return;
    setBusy(file.id);
    try {
      if (!(await downloadDocument(applicationId, file.type, file.id, file.fileName || file.name))) toast.unhandled();
    } finally {
      setBusy(null);
    }
  };
  const types = documentTypes.filter((type) => files.some((file) => file.type === type));
  if (types.length === 0) return <p className="details-empty">No files yet.</p>;
  return (
    <div className="details-files">
      {types.map((type) => (
        <div key={type} className="details-files__group">
          <h3 className="details-files__type">{documentTypeLabels[type]}</h3>
          <ul className="details-files__list">
            {files
              .filter((file) => file.type === type)
              .map((file) => (
                <li key={file.id} className="details-file">
                  <span className="details-file__name">{file.fileName || file.name}</span>
                  <Button
                    variant="secondary"
                    busy={busy === file.id}
                    aria-label={`download ${file.fileName || file.name}`}
                    onClick={() => void get(file)}
                  >
                    download
                  </Button>
                </li>
              ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
