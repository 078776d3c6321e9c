/**
 * The soak's HTTP client: what a well-behaved portal client does when a server goes away under it.
 * A network error, a 502, 503 or 504 (the proxy's or a server's that is shutting down) and
 * a 409 `inProgress` (the first request with this key is still running) are tried again, with the
 * same Idempotency-Key, until the call gets a final answer or its retry budget is spent. Every
 * attempt is counted, so the report says what the clients met and whether any 5xx was left
 * without a retry that succeeded.
 */
import { IDEMPOTENCY_LEASE_MS } from '../../src/server/http/idempotency';
import { delay } from './cluster';

export interface Call {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  token?: string;
  json?: unknown;
  /** A multipart body, made anew for every attempt. */
  form?: () => FormData;
  /** The Idempotency-Key: the same on every attempt of this call. */
  key?: string;
}

export interface Answer {
  status: number;
  // The parsed JSON answer, or the text when it is not JSON.
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** What every call of the run met, attempt by attempt. */
export class Stats {
  calls = 0;
  attempts = 0;
  retries = 0;
  networkErrors = 0;
  /** Answers by status, every attempt counted. */
  statuses = new Map<number, number>();
  /** Calls that ended on a 5xx or a network error after their whole retry budget. */
  unretried: string[] = [];
  /** 500s: a server's own failure, never a restart's; the run fails on any. */
  internalErrors: string[] = [];
  /** Milliseconds of each successful attempt, and of each call from its first attempt to its answer. */
  attemptMs: number[] = [];
  callMs: number[] = [];

  count(status: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }
}

// Longer than the idempotency lease: a key claimed by a killed process is taken over after it.
const RETRY_BUDGET_MS = 2 * IDEMPOTENCY_LEASE_MS;
const ATTEMPT_TIMEOUT_MS = 60_000;

export function httpClient(base: string, stats: Stats) {
  return async function send(call: Call): Promise<Answer> {
    stats.calls++;
    const started = performance.now();
    let backoff = 100;
    for (;;) {
      stats.attempts++;
      const attemptStarted = performance.now();
      let answer: Answer | undefined;
      try {
        const response = await fetch(base + call.path, {
          method: call.method,
          headers: {
            ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
            ...(call.key ? { 'idempotency-key': call.key } : {}),
            ...(call.json !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: call.form ? call.form() : call.json !== undefined ? JSON.stringify(call.json) : undefined,
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        const text = await response.text();
        answer = { status: response.status, body: parse(text) };
        stats.count(response.status);
        if (response.status === 500) stats.internalErrors.push(`${call.method} ${call.path}: ${text.slice(0, 300)}`);
        if (!retryable(answer)) {
          const ms = performance.now() - attemptStarted;
          stats.attemptMs.push(ms);
          stats.callMs.push(performance.now() - started);
          return answer;
        }
        const retryAfter = Number(response.headers.get('retry-after'));
        if (retryAfter > 0) backoff = Math.min(retryAfter * 1000, 5_000);
      } catch {
        // The connection broke or the attempt timed out: the request may or may not have been done.
        stats.networkErrors++;
      }
      if (performance.now() - started > RETRY_BUDGET_MS) {
        stats.unretried.push(`${call.method} ${call.path}: ${answer ? answer.status : 'network error'}`);
        return answer ?? { status: 0, body: undefined };
      }
      stats.retries++;
      await delay(backoff);
      backoff = Math.min(backoff * 2, 2_000);
    }
  };
}

function retryable({ status, body }: Answer): boolean {
  if (status === 0 || status >= 500) return true;
  return status === 409 && body?.error === 'inProgress';
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
