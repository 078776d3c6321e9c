import { useState } from 'react';
import type { components } from '../../../../shared/api/schema';
import { api } from '../../../api/client';
import { callApi, failureMessage } from '../../../api/failure';
import { Button } from '../../../ui/button';
import { FormMessage } from '../../../ui/form-message';
import { FileList } from './file-list';

type FileRecord = components['schemas']['FileRecord'];

/** A loan made before the portal signed its documents (the demo's, one moved in from elsewhere) has no envelope here. */
export const NO_SIGNED_DOCUMENTS = 'No documents signed in the portal are held for this application.';

/** 'Download signed docs' once signing made the loan: GET /docusign/signedDocs, then each document's download. */
export function SignedDocuments({ applicationId }: { applicationId: number }) {
  const [busy, setBusy] = useState(false);
  const [files, setFiles] = useState<FileRecord[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const run = async () => {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      const outcome = await callApi(() => api.GET('/docusign/signedDocs', { params: { query: { applicationId } } }));
      if (outcome.ok) setFiles(outcome.data.documents);
      else setMessage(outcome.status === 404 ? NO_SIGNED_DOCUMENTS : failureMessage(outcome));
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
      <FormMessage message={message} />
    </section>
  );
}
