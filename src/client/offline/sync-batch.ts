import { createApiClient, type ApiClient } from '../api/client';

/**
 * The sync's calls of one pass sent together (docs/decisions/702-batch-call.md): the writes the
 * sends under way ask for at about the same moment go to the server in one `POST /batch`, which
 * runs each, in order, as the call it names (its own validation, Idempotency-Key and audit), and
 * answers each one's status, headers and body. Each send gets its own answer as a `Response`, as if
 * it had been sent alone, so the engine, the handlers and the session's 401 see no difference; the
 * slowed page saves Chromium's work for a `fetch` per write.
 *
 * Only what comes through `syncApi` is gathered (the handlers use it for the calls `POST /batch`
 * takes). A request waits until every send under way has asked for its call or had its answer and
 * no other send has started for BATCH_QUIET_MS, at most BATCH_GATHER_MS; a lone request goes alone. A server that does not know `POST /batch` (an
 * older one: 404) gets single calls from then on; one that refuses the batch (400: a call it does
 * not batch; 413: too large) gets that batch's calls one by one.
 */

export const BATCH_MAX_ITEMS = 20;
/** A batch's bodies together at most this long, well under the server's 1 MB request limit. */
export const BATCH_MAX_CHARS = 256 * 1024;
/** The longest a request waits for the other sends' requests. */
export const BATCH_GATHER_MS = 20;
/**
 * Once every send under way has asked (or had its answer), a request still waits this long after
 * the last send started or asked: the lanes' next sends start one after another, not at once.
 */
export const BATCH_QUIET_MS = 3;

let quietMs = BATCH_QUIET_MS;
let gatherMs = BATCH_GATHER_MS;

interface Waiting {
  url: string;
  path: string;
  headers: Headers;
  key: string;
  text: string;
  authorization: string | null;
  resolve: (response: Response) => void;
  reject: (error: unknown) => void;
}

let queued: Waiting[] = [];
/** Sends under way (sync-send.ts says when one starts and ends). */
let sends = 0;
/** Requests queued or in a call, not answered yet. */
let unanswered = 0;
/** Requests answered whose send has not ended yet: they will not ask again. */
let answeredSends = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
/** When the first request now queued came. */
let firstQueuedAt: number | null = null;
/** The server answered 404 to `POST /batch`: single calls from now on. */
let noBatchRoute = false;
/** Batch calls made (for tests and the benchmark). */
let batchCalls = 0;

/** A send of the sync engine has started: its request may come. */
export function batchSendStarted(): void {
  sends += 1;
  flushWhenGathered();
}

/** A send of the sync engine has ended (with its answer, or without a request). */
export function batchSendEnded(): void {
  sends -= 1;
  if (answeredSends > 0) answeredSends -= 1;
  flushWhenGathered();
}

/** The sync engine's API client: a call of the batchable kind may go in a batch. */
export const syncApi: ApiClient = createApiClient(batchingFetch);

async function batchingFetch(request: Request): Promise<Response> {
  const key = request.headers.get('Idempotency-Key');
  const url = new URL(request.url);
  const base = url.pathname.indexOf('/api/');
  if (noBatchRoute || request.method !== 'POST' || !key || base !== 0 || url.search !== '' || request.signal?.aborted)
    return globalThis.fetch(request);
  const text = await request.text();
  // Only a JSON object body, small enough to share a batch.
  if (!text.startsWith('{') || text.length > BATCH_MAX_CHARS) return globalThis.fetch(single(request.url, request.headers, text));
  return new Promise<Response>((resolve, reject) => {
    queued.push({
      url: request.url,
      path: url.pathname.slice('/api'.length),
      headers: request.headers,
      key,
      text,
      authorization: request.headers.get('Authorization'),
      resolve,
      reject,
    });
    unanswered += 1;
    flushWhenGathered();
  });
}

function single(url: string, headers: Headers, text: string): Request {
  return new Request(url, { method: 'POST', headers, body: text });
}

function flushWhenGathered(): void {
  if (queued.length === 0) return;
  if (queued.length >= BATCH_MAX_ITEMS) {
    flush();
    return;
  }
  const now = performance.now();
  firstQueuedAt ??= now;
  const asking = sends - unanswered - answeredSends;
  const latest = firstQueuedAt + gatherMs;
  const due = asking <= 0 ? Math.min(now + quietMs, latest) : latest;
  if (timer) clearTimeout(timer);
  timer = setTimeout(flush, Math.max(0, due - now));
}

/** Sends what is queued: in batches of one session, within the bounds; a lone one alone. */
function flush(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  firstQueuedAt = null;
  while (queued.length > 0) {
    const first = queued[0]!;
    const group: Waiting[] = [];
    let chars = 0;
    for (const item of queued) {
      if (group.length === BATCH_MAX_ITEMS) break;
      if (item.authorization !== first.authorization) continue;
      if (group.length > 0 && chars + item.text.length > BATCH_MAX_CHARS) break;
      group.push(item);
      chars += item.text.length;
    }
    queued = queued.filter((item) => !group.includes(item));
    if (group.length === 1 || noBatchRoute) for (const item of group) void sendAlone(item);
    else void sendBatch(group);
  }
}

function answered(item: Waiting, response: Response): void {
  unanswered -= 1;
  answeredSends += 1;
  item.resolve(response);
}

function failed(item: Waiting, error: unknown): void {
  unanswered -= 1;
  answeredSends += 1;
  item.reject(error);
}

async function sendAlone(item: Waiting): Promise<void> {
  try {
    answered(item, await globalThis.fetch(single(item.url, item.headers, item.text)));
  } catch (error) {
    failed(item, error);
  }
}

interface BatchAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A body of the same bytes for every item of a refused batch (each its own Response). */
function copyOf(response: Response, text: string): Response {
  return new Response(text === '' ? null : text, { status: response.status, headers: response.headers });
}

const NO_BODY_STATUSES = new Set([204, 205, 304]);

/** An item's answer as its own call's would have been. */
function responseOf(answer: BatchAnswer): Response {
  const status = answer.status >= 200 && answer.status <= 599 ? answer.status : 502;
  const headers = new Headers(answer.headers ?? {});
  const hasBody = answer.body !== undefined && !NO_BODY_STATUSES.has(status);
  if (hasBody) headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(hasBody ? JSON.stringify(answer.body) : null, { status, headers });
}

/**
 * An item the server did not run, having stopped after a 401 or a fault: what it would have
 * answered it alone, the same 401 (the session ended), or a fault (sent again later).
 */
function notRun(last: BatchAnswer | undefined): Response {
  if (last?.status === 401) return responseOf(last);
  return new Response(JSON.stringify({ error: 'unavailable' }), {
    status: 503,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
}

async function sendBatch(group: Waiting[]): Promise<void> {
  const first = group[0]!;
  const items = group.map(
    (item) =>
      `{"method":"POST","path":${JSON.stringify(item.path)},"idempotencyKey":${JSON.stringify(item.key)},"body":${item.text}}`,
  );
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (first.authorization) headers.Authorization = first.authorization;
  let response: Response;
  let text: string;
  try {
    batchCalls += 1;
    response = await globalThis.fetch(new URL('/api/batch', first.url).href, {
      method: 'POST',
      headers,
      body: `{"requests":[${items.join(',')}]}`,
    });
    text = await response.text();
  } catch (error) {
    for (const item of group) failed(item, error);
    return;
  }
  if (response.status === 404 || response.status === 405) noBatchRoute = true;
  if (response.status === 404 || response.status === 405 || response.status === 400 || response.status === 413) {
    // Not batched here (an older server, a call it does not batch): each goes alone, in order.
    for (const item of group) await sendAlone(item);
    return;
  }
  if (response.status !== 200) {
    // About the whole call (the session ended, a limit, a fault): each write's answer.
    for (const item of group) answered(item, copyOf(response, text));
    return;
  }
  let answers: BatchAnswer[];
  try {
    answers = (JSON.parse(text) as { answers: BatchAnswer[] }).answers;
  } catch {
    answers = [];
  }
  group.forEach((item, index) => {
    const answer = answers[index];
    answered(item, answer ? responseOf(answer) : notRun(answers[answers.length - 1]));
  });
}

/** Whether calls may go together: not once the server said it does not know POST /batch. */
export function batchingAvailable(): boolean {
  return !noBatchRoute;
}

/** For tests and the benchmark: how many batch calls were made. */
export function batchCallsMade(): number {
  return batchCalls;
}

/** For tests: a longer wait, so that writes a slow test environment starts apart still go together. */
export function setBatchTimingForTests(timing: { quietMs: number; gatherMs: number }): void {
  quietMs = timing.quietMs;
  gatherMs = timing.gatherMs;
}

/** For tests: forget what was learnt of the server, and anything left. */
export function resetBatchingForTests(): void {
  quietMs = BATCH_QUIET_MS;
  gatherMs = BATCH_GATHER_MS;
  if (timer) clearTimeout(timer);
  timer = null;
  firstQueuedAt = null;
  queued = [];
  sends = 0;
  unanswered = 0;
  answeredSends = 0;
  noBatchRoute = false;
  batchCalls = 0;
}
