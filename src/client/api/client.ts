import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '../../shared/api/schema';

/** The base address of every call; absolute so that `new Request()` accepts it outside a browser too (tests). */
export function apiBase(): string {
  return new URL('/api', globalThis.location?.origin ?? 'http://localhost').href;
}

export type ApiClient = Client<paths>;

/**
 * An API client typed from openapi.yaml (npm run gen:api) that sends its requests through `send`:
 * every call tells the connection state whether the server answered (decision 401), and carries
 * the session's bearer token (a 401 to it ends the session). `api` below is the app's one client;
 * the sync engine has one whose calls of a pass may go together (offline/sync-batch.ts).
 */
export function createApiClient(send: (request: Request) => Promise<Response>): ApiClient {
  const client = createClient<paths>({
    baseUrl: apiBase(),
    fetch: async (request) => {
      let response: Response;
      try {
        response = await send(request);
      } catch (error) {
        // A call its caller gave up on says nothing about the connection.
        if (!request.signal?.aborted) {
          lastCallUnanswered = true;
          callReporter?.unanswered();
        }
        throw error;
      }
      lastCallUnanswered = false;
      callReporter?.answered();
      return response;
    },
  });
  client.use(auth);
  return client;
}

interface CallReporter {
  /** The server answered (any status). */
  answered: () => void;
  /** No answer at all. */
  unanswered: () => void;
}

let callReporter: CallReporter | null = null;
/** The latest call got no answer at all; the next answer of any call clears it. */
let lastCallUnanswered = false;

/**
 * Whether a failure just met is most likely the connection: the browser says it is offline, or the
 * latest call got no answer. The catch-all toast then says so instead of 'Unhandled error', which
 * is for real defects only (decision 400). Kept here, not in connection.ts, so the public pages'
 * first chunk can ask it.
 */
export function connectionLost(): boolean {
  return globalThis.navigator?.onLine === false || lastCallUnanswered;
}

/**
 * The connection state (connection.ts) plugs itself in here when it is loaded, so the public
 * pages' first chunk does not carry it (their size budget, decision 311).
 */
export function setCallReporter(next: CallReporter | null): void {
  callReporter = next;
}

interface AuthHandlers {
  /** The bearer token of the current session, if any. */
  token: () => string | null;
  /** A call made with a token was refused: the session has ended on the server. */
  unauthorized: () => void;
}

let handlers: AuthHandlers = { token: () => null, unauthorized: () => undefined };

/** The session module plugs itself in here (keeps this module free of state imports). */
export function setAuthHandlers(next: AuthHandlers): void {
  handlers = next;
}

const auth: Middleware = {
  onRequest({ request }) {
    const token = handlers.token();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  onResponse({ request, response, schemaPath }) {
    const signingIn = schemaPath === '/auth' && request.method === 'POST';
    // Only a call that carried a token can reveal that the session has ended.
    if (response.status === 401 && !signingIn && request.headers.has('Authorization')) handlers.unauthorized();
    return undefined;
  },
};

/**
 * The one API client. The global fetch is looked up on each call, so a replaced one (tests,
 * service-worker shims) is used.
 */
export const api = createApiClient((request) => globalThis.fetch(request));

/** Whole-request error body of the contract: `{ error: code, fields?: { field: code }, details? }`. */
export interface ApiErrorBody {
  error: string;
  fields?: Record<string, string>;
  retryAfter?: number;
  /** What the refusal is about (the contract's ErrorDetails), to be read with its schema. */
  details?: unknown;
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string';
}
