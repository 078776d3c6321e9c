import { useCallback, useRef } from 'react';
import type { components } from '../../shared/api/schema';
import { parseRecordId } from '../../shared/rules/record-id';
import { failureMessage, readFailure, unwrap, type ApiAnswer } from '../api/failure';
import { useCachedQuery, type CachedQuery } from '../offline/cache';

/**
 * How the four administration areas (firms, lawyers, solicitors, clients) talk to the API: the
 * records they show, a call's outcome, and loading one call's answer into a screen.
 */

type Schemas = components['schemas'];
export type Firm = Schemas['Firm'];
export type Lawyer = Schemas['Lawyer'];
export type Solicitor = Schemas['Solicitor'];
export type Client = Schemas['Client'];

export type Loaded<T> =
  | { status: 'loading'; data?: undefined }
  | { status: 'ready'; data: T }
  | { status: 'notFound'; data?: undefined }
  | { status: 'failed'; message: string; data?: undefined };

/**
 * Loads one call's answer for a screen through the read layer (offline/cache.ts): the answer is
 * kept on the device, shown offline as a saved copy with its time, and read again as every list
 * and record is (the user's writes answered, back online, other people's changes: decision 402).
 * While a new answer is on its way (another page of a list), the previous one stays on screen:
 * nothing jumps. `key` changes when the call does. 403 and 404 both read "not found" (a record
 * that is not the caller's is not theirs to know about). `read` is what ReadStatus shows.
 */
export function useLoad<T>(
  key: string,
  load: () => Promise<ApiAnswer<T>>,
): { state: Loaded<T>; reload: () => void; fetching: boolean; read: CachedQuery<T> } {
  const latest = useRef(load);
  latest.current = load;
  const fetcher = useCallback(async () => unwrap(await latest.current()), []);
  const read = useCachedQuery(key, fetcher);
  return { state: loadedState(read), reload: read.reload, fetching: read.loading, read };
}

function loadedState<T>({ data, error }: CachedQuery<T>): Loaded<T> {
  if (data !== undefined) return { status: 'ready', data };
  if (error === undefined) return { status: 'loading' };
  const failure = readFailure(error);
  if (failure.status === 404 || failure.status === 403) return { status: 'notFound' };
  return { status: 'failed', message: failureMessage(failure) };
}

/** The answer for an address whose id cannot be one (/firms/abc): not found, without a call. */
export function notFoundAnswer<T>(): Promise<ApiAnswer<T>> {
  return Promise.resolve({ response: new Response(null, { status: 404 }) });
}

/** The record id in an address, or null when it cannot be one. */
export function recordId(value: string | undefined): number | null {
  return parseRecordId(value);
}
