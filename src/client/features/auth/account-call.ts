import { errorMessages } from '../../../shared/rules/error-codes';
import type { ApiErrorBody } from '../../api/client';
import { callApi, failureCause, failureMessage, type ApiAnswer } from '../../api/failure';

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
  const outcome = await callApi(send);
  if (outcome.ok) return outcome;
  if (outcome.kind === 'http' && refused?.(outcome.status, outcome.body)) return { ok: false };
  // No connection, the portal not answering, too many attempts: their own words, never 'Unhandled error'.
  if (failureCause(outcome) !== 'other' || outcome.status === 429) target.setMessage(failureMessage(outcome));
  else if (outcome.body?.fields) target.setServerCodes(outcome.fields);
  else target.setMessage(errorMessages.unhandled);
  return { ok: false };
}
