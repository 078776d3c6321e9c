import { errorMessages } from '../../../shared/rules/error-codes';
import { isApiErrorBody, type ApiErrorBody } from '../../api/client';

/** What an openapi-fetch call resolves to, as far as the account forms are concerned. */
export interface ApiAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Where a failure is shown: the form's message region and its fields. */
export interface FailureTarget {
  setMessage: (message: string | null) => void;
  setServerCodes: (codes: Record<string, string>) => void;
}

/** A refusal the page handles itself (return true), before the common ones below. */
export type RefusalHandler = (status: number, body: ApiErrorBody | null) => boolean;

/**
 * Sends one call of the account forms (sign-in, reset, sign-up, new password) and shows its
 * failure the same way on each: no answer at all → 'No connection…' (docs/decisions.md: the spec
 * only logs it), 429 → 'Too many attempts…', field codes → the fields' messages, anything else
 * → 'Unhandled error…'. Resolves with the answer's data on success.
 */
export async function accountCall<T>(
  send: () => Promise<ApiAnswer<T>>,
  target: FailureTarget,
  refused?: RefusalHandler,
): Promise<{ ok: true; data: T } | { ok: false }> {
  let answer: ApiAnswer<T>;
  try {
    answer = await send();
  } catch (failure) {
    console.error(failure);
    target.setMessage(errorMessages.offline);
    return { ok: false };
  }
  const { data, error, response } = answer;
  // A 204 has no body: its data is undefined, and that is what T is then.
  if (response.ok) return { ok: true, data: data as T };
  const body = isApiErrorBody(error) ? error : null;
  if (refused?.(response.status, body)) return { ok: false };
  if (response.status === 429) target.setMessage(errorMessages.tooManyAttempts);
  else if (body?.fields) target.setServerCodes(body.fields);
  else target.setMessage(errorMessages.unhandled);
  return { ok: false };
}
