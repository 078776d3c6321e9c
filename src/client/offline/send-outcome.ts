import * as v from 'valibot';

/** The answer to one send, as the engine acts on it. */
export type SendOutcome =
  | { type: 'done'; body: unknown }
  | { type: 'rejected'; error: string; fields?: Record<string, string> }
  | { type: 'conflict'; current: { data: unknown; version: number } }
  | { type: 'unauthorized' }
  /** No answer, a server failure, a rate limit or a replay still running: keep it and retry. */
  | { type: 'retry'; retryAfterMs?: number }
  /** Waits for an id that does not exist yet (the write that makes it has not gone through). */
  | { type: 'blocked' };

function errorCode(body: unknown, fallback: string): string {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'string' ? error : fallback;
}

function fieldCodes(body: unknown): Record<string, string> | undefined {
  const fields = (body as { fields?: unknown } | null)?.fields;
  if (!fields || typeof fields !== 'object') return undefined;
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

const conflictSchema = v.object({ current: v.object({ data: v.unknown(), version: v.number() }) });

/** Turns an HTTP answer into what the engine does with it. */
export function classify(status: number, body: unknown, retryAfterHeader?: string | null): SendOutcome {
  if (status >= 200 && status < 300) return { type: 'done', body };
  if (status === 401) return { type: 'unauthorized' };
  if (status === 429) {
    const seconds = Number((body as { retryAfter?: unknown } | null)?.retryAfter ?? retryAfterHeader);
    return Number.isFinite(seconds) && seconds > 0 ? { type: 'retry', retryAfterMs: seconds * 1000 } : { type: 'retry' };
  }
  if (status === 409) {
    const code = errorCode(body, 'conflict');
    // The first request with this key is still being answered: its answer will be replayed.
    if (code === 'inProgress') return { type: 'retry' };
    const conflict = v.safeParse(conflictSchema, body);
    if (code === 'conflict' && conflict.success) return { type: 'conflict', current: conflict.output.current };
    const fields = fieldCodes(body);
    return { type: 'rejected', error: code, ...(fields ? { fields } : {}) };
  }
  if (status >= 400 && status < 500 && status !== 408) {
    const fields = fieldCodes(body);
    return { type: 'rejected', error: errorCode(body, status === 400 ? 'validation' : 'unhandled'), ...(fields ? { fields } : {}) };
  }
  return { type: 'retry' };
}

/** The outcome of an openapi-fetch call (what a send handler returns). */
export function outcomeOf(result: { data?: unknown; error?: unknown; response: Response }): SendOutcome {
  const body = result.response.ok ? result.data : result.error;
  return classify(result.response.status, body, result.response.headers.get('Retry-After'));
}
