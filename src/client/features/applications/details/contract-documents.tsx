import { useCallback, useState } from 'react';
import { contractDocumentTypes } from '../../../../shared/rules/document-types';
import { INDEPENDENT_ADVICE_FEE } from '../../../../shared/rules/independent-advice';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/failure';
import { useCachedQuery } from '../../../offline/cache';
import { readPartMessage } from '../../../offline/read-status';
import { useOnline } from '../../../api/connection';
import { Button } from '../../../ui/button';
import { FileList } from './file-list';

/** The button's words: advice is still to get, or the certificate is in and the documents are only read. */
export const GET_ADVICE_LABEL = 'view documents and get independent advice';
export const VIEW_DOCUMENTS_LABEL = 'View documents';

/**
 * The client's contract documents, while they may still decide and the documents exist (decision
 * 306): 'view documents and get independent advice' until the certificate of advice is received,
 * then 'View documents' (decision 446), listing them to download.
 */
export function ContractDocuments({ applicationId, getAdvice }: { applicationId: number; getAdvice: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="details-section" aria-labelledby="details-contract-title">
      <h2 id="details-contract-title" className="details-section__title">
        Your documents
      </h2>
      {open ? (
        <ContractFiles applicationId={applicationId} getAdvice={getAdvice} />
      ) : (
        <Button onClick={() => setOpen(true)}>{getAdvice ? GET_ADVICE_LABEL : VIEW_DOCUMENTS_LABEL}</Button>
      )}
    </section>
  );
}

function ContractFiles({ applicationId, getAdvice }: { applicationId: number; getAdvice: boolean }) {
  const fetcher = useCallback(
    async () => unwrap(await api.GET('/applications/{id}/docs', { params: { path: { id: applicationId } } })),
    [applicationId],
  );
  const read = useCachedQuery(`application:${applicationId}:docs`, fetcher);
  const { data } = read;
  const missing = readPartMessage(read, useOnline());
  const files = (data?.documents ?? [])
    .filter((document) => (contractDocumentTypes as readonly string[]).includes(document.type))
    .flatMap((document) => document.files);
  return (
    <div className="details-contract">
      {getAdvice ? (
        <p>
          Please download these documents and review them with an independent solicitor before you decide. Independent legal
          advice has a fixed fee of {INDEPENDENT_ADVICE_FEE}; once your solicitor's certificate of advice has been received you
          will be asked to sign.
        </p>
      ) : (
        <p>Your certificate of independent advice has been received. These are the documents you will be asked to sign.</p>
      )}
      {missing ? <p className="details-empty">{missing}</p> : null}
      {data ? <FileList applicationId={applicationId} files={files} /> : null}
    </div>
  );
}
