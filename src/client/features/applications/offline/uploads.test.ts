// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import './application-mutations';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionAtom, type AppStore } from '../../../session/session';
import { db, fileRowSchema, readRows } from '../../../offline/db';
import { setUploadTransport, type UploadTransport } from '../../../offline/multipart-upload';
import { enqueue, waitForResult } from '../../../offline/outbox';
import { newLocalApplicationId } from './application-ids';
import { startSync, syncNow } from '../../../offline/sync-engine';
import { addFiles, isPdf, removeUpload } from './uploads';
import { fakeServer, jsonResponse, resetOffline, signedInStore, type SentCall } from '../../../test/offline-test-support';

function pdf(name: string, size?: number): File {
  const file = new File(['%PDF-1.7\n%fake\n'], name, { type: 'application/pdf' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

interface Sent {
  fields: Record<string, string>;
  fileName: string | undefined;
  headers: Record<string, string>;
}

function fakeUploads(answer: (sent: Sent, count: number) => { status: number; body: unknown } | 'offline') {
  const sent: Sent[] = [];
  const progress: number[] = [];
  const transport: UploadTransport = async ({ form, headers, onProgress, url }) => {
    expect(url).toMatch(/\/api\/applications\/file\/upload$/);
    const fields: Record<string, string> = {};
    let fileName: string | undefined;
    form.forEach((value, key) => {
      if (typeof value === 'string') fields[key] = value;
      else fileName = (value as File).name;
    });
    const entry = { fields, fileName, headers };
    const result = answer(entry, sent.length);
    if (result === 'offline') throw new TypeError('upload failed: no connection');
    sent.push(entry);
    onProgress(0.5);
    progress.push(0.5);
    onProgress(1);
    return { ...result, retryAfter: null };
  };
  setUploadTransport(transport);
  return { sent, progress };
}

async function uploads() {
  return readRows('uploads', fileRowSchema, await db.uploads.toArray()).sort((a, b) => a.fileName.localeCompare(b.fileName));
}

let store: AppStore;
let stop: () => void;

beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
});

afterEach(() => stop?.());

describe('uploads', () => {
  it('checks PDFs by content', async () => {
    expect(await isPdf(pdf('a.pdf'))).toBe(true);
    expect(await isPdf(new File(['hello'], 'b.pdf'))).toBe(false);
  });

  it('refuses what the step cannot hold, with messages naming the file; duplicates are not added again', async () => {
    fakeServer();
    const offline = { value: true };
    fakeUploads(() => (offline.value ? 'offline' : { status: 201, body: {} }));
    stop = startSync(store);
    const messages = await addFiles(
      7,
      'formE',
      [
        pdf('one.pdf'),
        pdf('one.pdf'),
        new File(['just text'], 'notes.pdf'),
        pdf('huge.pdf', 21 * 1024 * 1024),
        pdf('server.pdf'),
      ],
      ['server.pdf'],
    );
    expect(messages).toEqual([
      'one.pdf: a file with this name has already been added',
      'notes.pdf: this file is not a readable PDF',
      'huge.pdf: file size exceeds 20 MB',
      'server.pdf: a file with this name has already been added',
    ]);
    expect((await uploads()).map((row) => row.fileName)).toEqual(['one.pdf']);

    const many = Array.from({ length: 10 }, (_, index) => pdf(`file-${index}.pdf`));
    const more = await addFiles(7, 'formE', many);
    expect(more).toEqual(['file-9.pdf: at most 10 files can be uploaded']);
    expect(await uploads()).toHaveLength(10);
  });

  it('files chosen offline are kept, then uploaded, and the step is saved with their ids', async () => {
    const server = fakeServer({
      'POST /applications/create': () => jsonResponse(201, { id: 42 }),
      'POST /applications/update/asset': (call: SentCall) =>
        jsonResponse(200, { data: (call.body as { journeyData: unknown }).journeyData, version: 1 }),
    });
    let online = false;
    const { sent } = fakeUploads((entry, count) =>
      online ? { status: 201, body: { id: 100 + count, key: `key-${count}`, name: entry.fileName } } : 'offline',
    );
    server.offline = true;
    stop = startSync(store);
    const localId = newLocalApplicationId();
    await enqueue({ kind: 'createApplication', localId, personal: { name: 'Ada' } as never });
    expect(await addFiles(localId, 'formE', [pdf('a.pdf'), pdf('b.pdf')])).toEqual([]);
    const rows = await uploads();
    expect(rows.map((row) => row.localId)).toEqual([expect.stringMatching(/^upload-/), expect.stringMatching(/^upload-/)]);
    expect(
      rows.every((row) => row.status === 'queued' && Object.prototype.toString.call(row.data) === '[object ArrayBuffer]'),
    ).toBe(true);
    const save = await enqueue({
      kind: 'saveStep',
      applicationId: localId,
      step: 'asset',
      baseVersion: 0,
      data: { submittedFormE: true, documents: rows.map((row) => row.localId) },
    });
    expect(await waitForResult(save, 5_000)).toEqual({ status: 'queued' });

    online = true;
    server.offline = false;
    await syncNow();
    expect(sent.map((entry) => entry.fields)).toEqual([
      { fileName: 'a.pdf', applicationId: '42', type: 'formE' },
      { fileName: 'b.pdf', applicationId: '42', type: 'formE' },
    ]);
    expect(sent.map((entry) => entry.fileName)).toEqual(['a.pdf', 'b.pdf']);
    expect(sent[0]!.headers).toMatchObject({ Authorization: 'Bearer token-1', 'Idempotency-Key': expect.any(String) });
    const saveCall = server.calls.find((call) => call.path === '/applications/update/asset');
    expect(saveCall?.body).toMatchObject({ applicationId: 42, journeyData: { asset: { documents: [100, 101] } } });
    const done = await uploads();
    expect(done.map((row) => [row.status, row.fileId, row.key, row.progress, row.owner])).toEqual([
      ['uploaded', 100, 'key-0', 1, '42'],
      ['uploaded', 101, 'key-1', 1, '42'],
    ]);
    expect(done.every((row) => row.data === undefined)).toBe(true);
  });

  it('a refused upload is marked failed with the spec’s message and left out of the documents', async () => {
    const server = fakeServer({
      'POST /applications/update/asset': (call: SentCall) =>
        jsonResponse(200, { data: (call.body as { journeyData: unknown }).journeyData, version: 1 }),
    });
    fakeUploads(() => ({ status: 400, body: { error: 'validation', fields: { file: 'fileTooLarge' } } }));
    stop = startSync(store);
    await addFiles(7, 'formE', [pdf('big.pdf')]);
    const [row] = await uploads();
    const save = await enqueue({
      kind: 'saveStep',
      applicationId: 7,
      step: 'asset',
      baseVersion: 0,
      data: { documents: [5, row!.localId] },
    });
    expect(await waitForResult(save, 5_000)).toMatchObject({ status: 'done' });
    expect((await uploads())[0]).toMatchObject({ status: 'failed', error: 'big.pdf: file size exceeds 20 MB' });
    expect(server.calls.find((call) => call.path === '/applications/update/asset')?.body).toMatchObject({
      journeyData: { asset: { documents: [5] } },
    });
  });

  it('removing a file not yet sent forgets it; removing an uploaded one deletes it on the server', async () => {
    const server = fakeServer({ 'POST /applications/file/delete': () => jsonResponse(204) });
    let online = false;
    fakeUploads(() => (online ? { status: 201, body: { id: 7, key: 'stored-key' } } : 'offline'));
    stop = startSync(store);
    await addFiles(7, 'formE', [pdf('first.pdf'), pdf('second.pdf')]);
    await syncNow();
    const [first, second] = await uploads();
    await removeUpload(first!.localId);
    expect(await db.outbox.count()).toBe(1);

    online = true;
    await syncNow();
    expect((await uploads()).map((row) => [row.fileName, row.status])).toEqual([['second.pdf', 'uploaded']]);
    await removeUpload(second!.localId);
    await syncNow();
    expect(await uploads()).toEqual([]);
    expect(server.calls.map((call) => [call.path, call.body])).toEqual([
      ['/applications/file/delete', { fileKey: 'stored-key' }],
    ]);
  });

  it('a 401 on an upload ends the session (the upload goes outside openapi-fetch) and keeps the file queued', async () => {
    fakeServer();
    fakeUploads(() => ({ status: 401, body: { error: 'unauthorized' } }));
    stop = startSync(store);
    await addFiles(7, 'formE', [pdf('one.pdf')]);
    await syncNow();
    expect(store.get(sessionAtom).status).toBe('signedOut');
    expect(await db.outbox.count()).toBe(1);
    expect((await uploads())[0]).toMatchObject({ status: 'queued' });
  });

  it('a full disk on the server (503) keeps the file queued, and the retry uploads it once', async () => {
    fakeServer();
    let diskFull = true;
    const { sent } = fakeUploads(() =>
      diskFull ? { status: 503, body: { error: 'storageUnavailable' } } : { status: 201, body: { id: 9, key: 'stored-key' } },
    );
    stop = startSync(store);
    await addFiles(7, 'formE', [pdf('one.pdf')]);
    await syncNow();
    expect(await db.outbox.count()).toBe(1);
    expect((await uploads())[0]).toMatchObject({ status: 'queued' });

    diskFull = false;
    await syncNow();
    expect((await uploads())[0]).toMatchObject({ status: 'uploaded', fileId: 9 });
    expect(await db.outbox.count()).toBe(0);
    // Every try (the engine may retry within a pass) carries the same key, so the server stores it once.
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sent.map((s) => s.headers['Idempotency-Key'])).size).toBe(1);
  });
});
