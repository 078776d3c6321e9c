import { useState } from 'react';
import type { components } from '../../../../shared/api/schema';
import { api } from '../../../api/client';
import { callApi } from '../../../api/failure';
import { Button } from '../../../ui/button';
import { useToast } from '../../../ui/toast-store';
import { FileList } from './file-list';

type FileRecord = components['schemas']['FileRecord'];

/** 'Download signed docs' once signing made the loan: GET /docusign/signedDocs, then each document's download. */
export function SignedDocuments({ applicationId }: { applicationId: number }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [files, setFiles] = useState<FileRecord[] | null>(null);
  const run = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const outcome = await callApi(() => api.GET('/docusign/signedDocs', { params: { query: { applicationId } } }));
      if (outcome.ok && outcome.data) setFiles(outcome.data.documents);
      else toast.unhandled();
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="details-section" aria-labelledby="details-signed-title">
      <h2 id="details-signed-title" className="details-section__title">
        Signed documents
      </h2>
      {files === null ? (
        <Button variant="secondary" busy={busy} onClick={() => void run()}>
          Download signed docs
        </Button>
      ) : (
        <FileList applicationId={applicationId} files={files} />
      )}
    </section>
  );
}
