import { useCallback, useEffect, useRef, useState } from 'react';
import type { components } from '../../shared/api/schema';
import { parseRecordId } from '../../shared/rules/record-id';
import { callApi, failureMessage, type ApiAnswer } from '../api/failure';

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
 * Loads one call's answer for a screen. While a new answer is on its way (another page of a
 * list), the previous one stays on screen: nothing jumps. `key` changes when the call does. 403
 * and 404 both read "not found" (a record that is not the caller's is not theirs to know about).
 */
export function useLoad<T>(
  key: string,
  load: () => Promise<ApiAnswer<T>>,
): { state: Loaded<T>; reload: () => void; fetching: boolean } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [fetching, setFetching] = useState(true);
  const [round, setRound] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let live = true;
    setFetching(true);
    void callApi(() => latest.current()).then((outcome) => {
      if (!live) return;
      setFetching(false);
      if (outcome.ok) setState({ status: 'ready', data: outcome.data });
      else if (outcome.status === 404 || outcome.status === 403) setState({ status: 'notFound' });
      else setState({ status: 'failed', message: failureMessage(outcome) });
    });
    return () => {
      live = false;
    };
    // `key` names what the call depends on (its path and query).
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { state, reload, fetching };
}

/** The answer for an address whose id cannot be one (/firms/abc): not found, without a call. */
export function notFoundAnswer<T>(): Promise<ApiAnswer<T>> {
  return Promise.resolve({ response: new Response(null, { status: 404 }) });
}

/** The record id in an address, or null when it cannot be one. */
export function recordId(value: string | undefined): number | null {
  return parseRecordId(value);
}
