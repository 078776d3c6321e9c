import * as v from 'valibot';
import { api } from '../api/client';
import type { components } from '../../shared/api/schema';
import { journeySteps, type JourneyStep } from '../../shared/journey/steps';
import { db, idMapRowSchema, readRow, uploadRowSchema, type MutationKind, type OutboxRow, type UploadRow } from './db';
import { currentToken, sessionUnauthorized } from '../session/current-session';

/**
 * The writes the outbox can hold. Each is stored as a small payload and turned into its request
 * only when it is sent, so ids that did not exist when it was queued (an application created
 * offline: `local-<uuid>`; a file chosen offline: `upload-<uuid>`) are resolved then.
 */

export const LOCAL_APPLICATION_PREFIX = 'local-';
export const LOCAL_UPLOAD_PREFIX = 'upload-';

export function isLocalApplicationId(id: unknown): id is string {
  return typeof id === 'string' && id.startsWith(LOCAL_APPLICATION_PREFIX);
}

export function isLocalUploadId(id: unknown): id is string {
  return typeof id === 'string' && id.startsWith(LOCAL_UPLOAD_PREFIX);
}

const applicationRef = v.union([v.pipe(v.number(), v.integer()), v.string()]);

export const payloadSchemas = {
  createApplication: v.object({
    localId: v.string(),
    lawyerId: v.optional(v.number()),
    personal: v.unknown(),
  }),
  saveStep: v.object({
    applicationId: applicationRef,
    step: v.picklist(journeySteps),
    baseVersion: v.number(),
    data: v.unknown(),
  }),
  submitApplication: v.object({ applicationId: applicationRef }),
  uploadFile: v.object({ localId: v.string() }),
  deleteFile: v.object({ fileKey: v.string() }),
} satisfies Record<MutationKind, v.GenericSchema>;

export type MutationPayload<K extends MutationKind> = v.InferOutput<(typeof payloadSchemas)[K]>;

/** What `enqueue` takes. `draftKey` names the draft the write came from (its state follows the answer). */
export type MutationInput =
  | {
      kind: 'createApplication';
      /** The `local-<uuid>` the wizard used until now (newLocalApplicationId()). */
      localId: string;
      lawyerId?: number;
      personal: components['schemas']['ClientDetails'];
      draftKey?: string;
    }
  | {
      kind: 'saveStep';
      applicationId: number | string;
      step: JourneyStep;
      baseVersion: number;
      /** The step's journey data; the asset step's `documents` may name `upload-<uuid>` files. */
      data: unknown;
      draftKey?: string;
    }
  | { kind: 'submitApplication'; applicationId: number | string; draftKey?: string }
  | { kind: 'uploadFile'; localId: string; draftKey?: string }
  | { kind: 'deleteFile'; fileKey: string; draftKey?: string };

/** The answer to one send, as the engine acts on it. */
export type SendOutcome =
  | { type: 'done'; body: unknown }
  | { type: 'rejected'; error: string; fields?: Record<string, string> }
  | { type: 'conflict'; current: { data: unknown; version: number } }
  | { type: 'unauthorized' }
  /** No answer, a server failure, a rate limit or a replay still running: keep it and retry. */
  | { type: 'retry'; retryAfterMs?: number }
  /** Waits for an id that does not exist yet (its create or upload is not done). */
  | { type: 'blocked' };

class Blocked extends Error {}

async function serverIdFor(userId: number, localId: string): Promise<IdMapEntry | undefined> {
  const row = readRow('idMap', idMapRowSchema, await db.idMap.get(localId));
  return row && row.userId === userId ? row : undefined;
}
type IdMapEntry = v.InferOutput<typeof idMapRowSchema>;

async function resolveApplication(userId: number, id: number | string): Promise<number> {
  if (typeof id === 'number') return id;
  if (/^\d+$/.test(id)) return Number(id);
  const mapped = isLocalApplicationId(id) ? await serverIdFor(userId, id) : undefined;
  if (!mapped) throw new Blocked();
  return mapped.serverId;
}

/**
 * The asset step's documents: files already uploaded are ids; a file chosen offline is its
 * `upload-<uuid>` until its upload is done. One that failed or was removed is left out (its entry
 * in the uploads list says why); one still waiting holds the save back.
 */
async function resolveDocuments(userId: number, documents: unknown): Promise<unknown> {
  if (!Array.isArray(documents)) return documents;
  const out: unknown[] = [];
  for (const entry of documents) {
    if (!isLocalUploadId(entry)) {
      out.push(entry);
      continue;
    }
    const mapped = await serverIdFor(userId, entry);
    if (mapped) {
      out.push(mapped.serverId);
      continue;
    }
    const upload = readRow('uploads', uploadRowSchema, await db.uploads.get(entry));
    if (upload && upload.userId === userId && upload.status !== 'failed') throw new Blocked();
  }
  return [...new Set(out)];
}

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

async function jsonOutcome(result: { data?: unknown; error?: unknown; response: Response }): Promise<SendOutcome> {
  const body = result.response.ok ? result.data : result.error;
  return classify(result.response.status, body, result.response.headers.get('Retry-After'));
}

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

export function apiUrl(path: string): string {
  return `${new URL('/api', globalThis.location?.origin ?? 'http://localhost').href}${path}`;
}

async function sendUpload(
  mutation: OutboxRow,
  row: UploadRow,
  applicationId: number,
  onProgress: ProgressListener,
): Promise<SendOutcome> {
  if (!row.data) return { type: 'rejected', error: 'unhandled' };
  const form = new FormData();
  form.append('file', new Blob([row.data], { type: row.mimeType }), row.fileName);
  form.append('fileName', row.fileName);
  form.append('applicationId', String(applicationId));
  form.append('type', row.type);
  const headers: Record<string, string> = { 'Idempotency-Key': mutation.id };
  const token = currentToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const answer = await transport()({ url: apiUrl('/applications/file/upload'), form, headers, onProgress });
  // Sent outside openapi-fetch, so its 401 middleware did not see it: end the session here too, or
  // the queue would stay paused with nothing asking the user to sign in again.
  if (answer.status === 401) sessionUnauthorized();
  return classify(answer.status, answer.body, answer.retryAfter);
}

export interface SendContext {
  userId: number;
  /** Progress of an upload (the engine keeps it on the upload's row). */
  onUploadProgress: (localId: string, progress: number) => void;
}

/**
 * Builds the mutation's request now (ids resolved) and sends it with its id as Idempotency-Key.
 * A rejected fetch (no connection) is thrown; every HTTP answer becomes a SendOutcome.
 */
export async function sendMutation(mutation: OutboxRow, context: SendContext): Promise<SendOutcome> {
  const headers = { 'Idempotency-Key': mutation.id };
  const { userId } = context;
  try {
    switch (mutation.kind) {
      case 'createApplication': {
        const payload = v.parse(payloadSchemas.createApplication, mutation.payload);
        const body = {
          ...(payload.lawyerId === undefined ? {} : { lawyerId: payload.lawyerId }),
          journeyData: { personal: payload.personal as components['schemas']['ClientDetails'] },
        };
        return await jsonOutcome(await api.POST('/applications/create', { body, headers }));
      }
      case 'saveStep': {
        const payload = v.parse(payloadSchemas.saveStep, mutation.payload);
        const applicationId = await resolveApplication(userId, payload.applicationId);
        let data = payload.data;
        if (payload.step === 'asset' && data && typeof data === 'object' && 'documents' in data) {
          data = { ...data, documents: await resolveDocuments(userId, (data as { documents?: unknown }).documents) };
        }
        const body = {
          applicationId,
          baseVersion: payload.baseVersion,
          journeyData: { [payload.step]: data } as components['schemas']['Journey'],
        };
        return await jsonOutcome(
          await api.POST('/applications/update/{step}', { params: { path: { step: payload.step } }, body, headers }),
        );
      }
      case 'submitApplication': {
        const payload = v.parse(payloadSchemas.submitApplication, mutation.payload);
        const applicationId = await resolveApplication(userId, payload.applicationId);
        return await jsonOutcome(
          await api.POST('/applications/state/update', { body: { applicationId, state: 'submitted' }, headers }),
        );
      }
      case 'deleteFile': {
        const payload = v.parse(payloadSchemas.deleteFile, mutation.payload);
        // The contract lists no Idempotency-Key here: deleting twice is harmless (404 counts as done).
        const result = await api.POST('/applications/file/delete', { body: { fileKey: payload.fileKey } });
        if (result.response.status === 404) return { type: 'done', body: undefined };
        return await jsonOutcome(result);
      }
      case 'uploadFile': {
        const payload = v.parse(payloadSchemas.uploadFile, mutation.payload);
        const row = readRow('uploads', uploadRowSchema, await db.uploads.get(payload.localId));
        // Removed before it was sent: nothing to do.
        if (!row || row.userId !== userId) return { type: 'done', body: undefined };
        const applicationId = await resolveApplication(userId, row.applicationId);
        return await sendUpload(mutation, row, applicationId, (progress) =>
          context.onUploadProgress(row.localId, progress),
        );
      }
    }
  } catch (error) {
    if (error instanceof Blocked) return { type: 'blocked' };
    if (error instanceof v.ValiError) return { type: 'rejected', error: 'unhandled' };
    throw error;
  }
}
