import { errorMessages } from '../../shared/rules/error-codes';
import { isApiErrorBody, type ApiErrorBody } from './client';

/**
 * The one way to read an API failure: no answer at all ('offline'), or an HTTP answer with its
 * status, the contract's whole-request code and its field codes. Screens, the offline engine and
 * the cached reads all read failures here, and turn them into words with failureMessage.
 */

/** What an openapi-fetch call resolves to. */
export interface ApiAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export type Failure =
  | {
      kind: 'offline';
      status: 0;
      /** 'offline': no answer at all; 'timeout': none in the time a screen waits (ReadTimeout). */
      code: 'offline' | 'timeout';
      fields: Record<string, string>;
      body: null;
    }
  | {
      kind: 'http';
      status: number;
      /** The body's `error` code, else one named by the status ('validation' for 400, else 'unhandled'). */
      code: string;
      /** Field path → code (src/shared/rules/error-codes.ts); empty when the body names none. */
      fields: Record<string, string>;
      body: ApiErrorBody | null;
      /** Seconds, from the body or the Retry-After header (429). */
      retryAfter?: number;
      /** What the refusal is about (the contract's ErrorDetails), as sent; read it with its schema. */
      details?: unknown;
    };

export type CallOutcome<T> = { ok: true; data: T } | ({ ok: false } & Failure);

/** An answer from the server (not a missing connection), thrown by unwrap. */
export class ApiResponseError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`API answered ${status}`);
    this.name = 'ApiResponseError';
  }
}

/** A read that got no answer in the time a screen waits for one (offline/cache.ts). */
export class ReadTimeout extends Error {
  constructor() {
    super('No answer in time');
    this.name = 'ReadTimeout';
  }
}

/** For fetchers over openapi-fetch: the data, or an ApiResponseError with the status and body. */
export function unwrap<T>(result: ApiAnswer<T>): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  throw new ApiResponseError(result.response.status, result.error);
}

function fieldCodes(body: unknown): Record<string, string> {
  const fields = (body as { fields?: unknown } | null)?.fields;
  if (!fields || typeof fields !== 'object') return {};
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** A failed HTTP answer from its status and body (and Retry-After header, if any). */
export function httpFailure(status: number, body: unknown, retryAfterHeader?: string | null): Failure {
  const errorBody = isApiErrorBody(body) ? body : null;
  const seconds = Number((body as { retryAfter?: unknown } | null)?.retryAfter ?? retryAfterHeader);
  return {
    kind: 'http',
    status,
    code: errorBody?.error ?? (status === 400 ? 'validation' : 'unhandled'),
    fields: fieldCodes(body),
    body: errorBody,
    ...(Number.isFinite(seconds) && seconds > 0 ? { retryAfter: seconds } : {}),
    ...(errorBody?.details && typeof errorBody.details === 'object' ? { details: errorBody.details } : {}),
  };
}

const OFFLINE_FAILURE: Failure = { kind: 'offline', status: 0, code: 'offline', fields: {}, body: null };
const TIMEOUT_FAILURE: Failure = { kind: 'offline', status: 0, code: 'timeout', fields: {}, body: null };

/**
 * Reads a failure from what a call produced: an answer that is not ok, an ApiResponseError, or
 * anything thrown instead of an answer (no connection).
 */
export function readFailure(source: ApiAnswer<unknown> | unknown): Failure {
  if (source instanceof ApiResponseError) return httpFailure(source.status, source.body);
  if (source instanceof ReadTimeout) return TIMEOUT_FAILURE;
  const answer = source as Partial<ApiAnswer<unknown>> | null;
  if (answer && answer.response instanceof Response) {
    return httpFailure(answer.response.status, answer.error, answer.response.headers.get('Retry-After'));
  }
  return OFFLINE_FAILURE;
}

/** Makes one call: its data, or its failure (a call that throws is 'offline'). */
export async function callApi<T>(send: () => Promise<ApiAnswer<T>>): Promise<CallOutcome<T>> {
  let answer: ApiAnswer<T>;
  try {
    answer = await send();
  } catch (failure) {
    console.error(failure);
    return { ok: false, ...OFFLINE_FAILURE };
  }
  // A 204 has no body: its data is undefined, and that is what T is then.
  if (answer.response.ok) return { ok: true, data: answer.data as T };
  return { ok: false, ...readFailure(answer) };
}

/** Statuses a gateway or an overloaded server answers with: the portal is not answering, nothing is wrong with the request. */
const UNAVAILABLE_STATUSES: ReadonlySet<number> = new Set([408, 502, 503, 504]);

/**
 * What went wrong, as the person sees it (decision 400): no connection ('offline'), the portal not
 * answering in time or at all ('unavailable': a timeout, 408, 502, 503, 504), or anything else
 * ('other': a refusal, or a real defect). Only the last may ever read 'Unhandled error'.
 */
export function failureCause(failure: Failure): 'offline' | 'unavailable' | 'other' {
  if (failure.kind === 'offline') return failure.code === 'timeout' ? 'unavailable' : 'offline';
  return UNAVAILABLE_STATUSES.has(failure.status) ? 'unavailable' : 'other';
}

/** The spec's words for a failure a form does not show on its fields. */
export function failureMessage(failure: Failure): string {
  const cause = failureCause(failure);
  if (cause === 'offline') return errorMessages.offline;
  if (cause === 'unavailable') return errorMessages.unavailable;
  if (failure.status === 429) return errorMessages.tooManyAttempts;
  if (failure.status === 404) return errorMessages.notFound;
  return errorMessages.unhandled;
}

/** The spec's words for a whole-request code (a refused write), or `fallback` for one without words. */
export function codeMessage(code: string, fallback: string = errorMessages.unhandled): string {
  return (errorMessages as Record<string, string>)[code] ?? fallback;
}

/**
 * What to do about a real defect, said after 'Unhandled error. Please contact an administrator'
 * (decision 400): try again, then whom to contact and how (the brand's phone and email, when known).
 */
export function defectAdvice(contact: { phone: string; email: string }): string {
  const ways = [contact.phone && `call ${contact.phone}`, contact.email && `email ${contact.email}`].filter(Boolean).join(' or ');
  return `Reload the page to try again. If it happens again, ${ways ? `${ways}` : 'contact us'} and say what you were doing.`;
}
