import { useCallback, useState } from 'react';
import { contractDocumentTypes } from '../../../../shared/rules/document-types';
import { INDEPENDENT_ADVICE_FEE } from '../../../../shared/rules/limits';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/failure';
import { useCachedQuery } from '../../../offline/cache';
import { readPartMessage } from '../../../offline/read-status';
import { useOnline } from '../../../api/connection';
import { Button } from '../../../ui/button';
import { FileList } from './file-list';

/**
 * The client's 'view documents and get independent advice' (once accepted, while they may still
 * decide): the contract documents to download and take to an independent solicitor (decision 306).
 */
export function ContractDocuments({ applicationId }: { applicationId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="details-section" aria-labelledby="details-contract-title">
      <h2 id="details-contract-title" className="details-section__title">
        Your documents
      </h2>
      {open ? (
        <ContractFiles applicationId={applicationId} />
      ) : (
        <Button onClick={() => setOpen(true)}>view documents and get independent advice</Button>
      )}
    </section>
  );
}

function ContractFiles({ applicationId }: { applicationId: number }) {
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
      <p>
        Please download these documents and review them with an independent solicitor before you decide. Independent legal advice
        has a fixed fee of {INDEPENDENT_ADVICE_FEE}; once your solicitor's certificate of advice has been received you will be
        asked to sign.
      </p>
      {missing ? <p className="details-empty">{missing}</p> : null}
      {data ? <FileList applicationId={applicationId} files={files} /> : null}
    </div>
  );
}
