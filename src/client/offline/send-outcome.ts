import * as v from 'valibot';
import { httpFailure } from '../api/failure';

/** The answer to one send, as the engine acts on it. */
export type SendOutcome =
  | { type: 'done'; body: unknown }
  /** `details`: what the refusal is about (the contract's ErrorDetails), kept as sent. */
  | { type: 'rejected'; error: string; fields?: Record<string, string>; details?: unknown }
  | { type: 'conflict'; current: { data: unknown; version: number } }
  | { type: 'unauthorized' }
  /** No answer, a server failure, a rate limit or a replay still running: keep it and retry. */
  | { type: 'retry'; retryAfterMs?: number }
  /** Waits for an id that does not exist yet (the write that makes it has not gone through). */
  | { type: 'blocked' };

const conflictSchema = v.object({ current: v.object({ data: v.unknown(), version: v.number() }) });

/** Turns an HTTP answer into what the engine does with it. */
export function classify(status: number, body: unknown, retryAfterHeader?: string | null): SendOutcome {
  if (status >= 200 && status < 300) return { type: 'done', body };
  if (status === 401) return { type: 'unauthorized' };
  const failure = httpFailure(status, body, retryAfterHeader);
  if (failure.kind !== 'http') return { type: 'retry' };
  const fields = {
    ...(Object.keys(failure.fields).length > 0 ? { fields: failure.fields } : {}),
    ...(failure.details === undefined ? {} : { details: failure.details }),
  };
  if (status === 429) return failure.retryAfter ? { type: 'retry', retryAfterMs: failure.retryAfter * 1000 } : { type: 'retry' };
  if (status === 409) {
    const code = failure.body ? failure.code : 'conflict';
    // The first request with this key is still being answered: its answer will be replayed.
    if (code === 'inProgress') return { type: 'retry' };
    const conflict = v.safeParse(conflictSchema, body);
    if (code === 'conflict' && conflict.success) return { type: 'conflict', current: conflict.output.current };
    return { type: 'rejected', error: code, ...fields };
  }
  if (status >= 400 && status < 500 && status !== 408) return { type: 'rejected', error: failure.code, ...fields };
  return { type: 'retry' };
}

/** The outcome of an openapi-fetch call (what a send handler returns). */
export function outcomeOf(result: { data?: unknown; error?: unknown; response: Response }): SendOutcome {
  const body = result.response.ok ? result.data : result.error;
  return classify(result.response.status, body, result.response.headers.get('Retry-After'));
}
