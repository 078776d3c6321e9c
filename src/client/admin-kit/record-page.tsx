import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import NotFoundPage from '../routing/not-found-page';
import { Page } from '../ui/page';
import { PageSpinner } from '../ui/spinner';
import type { ApiAnswer } from '../api/failure';
import type { CachedQuery } from '../offline/cache';
import { ReadStatus, type ReadShown } from '../offline/read-status';
import { notFoundAnswer, recordId, useLoad, type Loaded } from './calls';
import './admin-kit.css';

/**
 * The record an edit screen (/lawyers/:id, /solicitors/:id, /clients/:id) is about, by the id in
 * its address; an id that cannot be one is not found without a call.
 */
export function useRecord<T>(
  name: string,
  load: (id: number) => Promise<ApiAnswer<T>>,
): { key: string; state: Loaded<T>; read: CachedQuery<T> } {
  const { id: param = '' } = useParams();
  const id = recordId(param);
  const { state, read } = useLoad(`${name} ${param}`, () => (id ? load(id) : notFoundAnswer<T>()));
  return { key: param, state, read };
}

/**
 * An edit screen around its record: the spinner while it loads, the not-found page (inside the
 * layout) for a record that is not there or not the caller's, else the editor; above it, what the
 * read layer says when the record is not a fresh answer (offline, the saved copy, why it failed).
 */
export function RecordPage<T>({
  title,
  state,
  read,
  children,
}: {
  title: string;
  state: Loaded<T>;
  read: ReadShown;
  children: (record: T) => ReactNode;
}) {
  if (state.status === 'notFound') return <NotFoundPage />;
  return (
    <Page title={title}>
      <ReadStatus read={read} />
      {state.status === 'ready' ? children(state.data) : state.status === 'failed' ? null : <PageSpinner />}
    </Page>
  );
}
