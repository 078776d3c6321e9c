import { classify, type SendOutcome } from './send-outcome';
import { currentToken, sessionUnauthorized } from '../session/current-session';
import { reportAnswered, reportUnanswered } from '../api/connection';

/** Progress of an upload being sent (0..1). */
export type ProgressListener = (progress: number) => void;

/** How a multipart upload goes on the wire: XMLHttpRequest (for progress) where there is one. */
export type UploadTransport = (request: {
  url: string;
  form: FormData;
  headers: Record<string, string>;
  onProgress: ProgressListener;
}) => Promise<{ status: number; body: unknown; retryAfter: string | null }>;

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const xhrTransport: UploadTransport = ({ url, form, headers, onProgress }) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () =>
      resolve({ status: xhr.status, body: parseJson(xhr.responseText), retryAfter: xhr.getResponseHeader('Retry-After') }),
    );
    xhr.addEventListener('error', () => reject(new TypeError('upload failed: no connection')));
    xhr.addEventListener('abort', () => reject(new TypeError('upload aborted')));
    xhr.send(form);
  });

/** Without XMLHttpRequest (Node tests) the upload goes through fetch, without progress. */
const fetchTransport: UploadTransport = async ({ url, form, headers, onProgress }) => {
  const response = await globalThis.fetch(new Request(url, { method: 'POST', body: form, headers }));
  onProgress(1);
  return { status: response.status, body: parseJson(await response.text()), retryAfter: response.headers.get('Retry-After') };
};

let uploadTransport: UploadTransport | null = null;

/** Tests may replace the transport (to see progress or the form). */
export function setUploadTransport(transport: UploadTransport | null): void {
  uploadTransport = transport;
}

function transport(): UploadTransport {
  return uploadTransport ?? (typeof XMLHttpRequest === 'function' ? xhrTransport : fetchTransport);
}

function apiUrl(path: string): string {
  return `${new URL('/api', globalThis.location?.origin ?? 'http://localhost').href}${path}`;
}

/**
 * Sends a multipart form to the API with the session's token and the write's Idempotency-Key,
 * reporting progress. A rejected transport (no connection) is thrown, as a fetch would be.
 */
export async function sendMultipart(
  path: string,
  form: FormData,
  idempotencyKey: string,
  onProgress: ProgressListener,
): Promise<SendOutcome> {
  const headers: Record<string, string> = { 'Idempotency-Key': idempotencyKey };
  const token = currentToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let answer: Awaited<ReturnType<UploadTransport>>;
  try {
    answer = await transport()({ url: apiUrl(path), form, headers, onProgress });
  } catch (error) {
    // Sent outside openapi-fetch: the connection state hears of it here (decision 401).
    reportUnanswered();
    throw error;
  }
  reportAnswered();
  // Sent outside openapi-fetch, so its 401 middleware did not see it: end the session here too, or
  // the queue would stay paused with nothing asking the user to sign in again.
  if (answer.status === 401) sessionUnauthorized();
  return classify(answer.status, answer.body, answer.retryAfter);
}
