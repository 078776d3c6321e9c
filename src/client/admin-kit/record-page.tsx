import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import NotFoundPage from '../routing/not-found-page';
import { FormMessage } from '../ui/form-message';
import { Page } from '../ui/page';
import { PageSpinner } from '../ui/spinner';
import type { ApiAnswer } from '../api/failure';
import { notFoundAnswer, recordId, useLoad, type Loaded } from './calls';
import './admin-kit.css';

/**
 * The record an edit screen (/lawyers/:id, /solicitors/:id, /clients/:id) is about, by the id in
 * its address; an id that cannot be one is not found without a call.
 */
export function useRecord<T>(name: string, load: (id: number) => Promise<ApiAnswer<T>>): { key: string; state: Loaded<T> } {
  const { id: param = '' } = useParams();
  const id = recordId(param);
  const { state } = useLoad(`${name} ${param}`, () => (id ? load(id) : notFoundAnswer<T>()));
  return { key: param, state };
}

/**
 * An edit screen around its record: the spinner while it loads, why it failed, the not-found page
 * (inside the layout) for a record that is not there or not the caller's, else the editor.
 */
export function RecordPage<T>({
  title,
  state,
  children,
}: {
  title: string;
  state: Loaded<T>;
  children: (record: T) => ReactNode;
}) {
  if (state.status === 'notFound') return <NotFoundPage />;
  return (
    <Page title={title}>
      {state.status === 'ready' ? (
        children(state.data)
      ) : state.status === 'failed' ? (
        <FormMessage message={state.message} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}
