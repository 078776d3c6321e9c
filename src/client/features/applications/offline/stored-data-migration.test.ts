// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import './application-mutations';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppStore } from '../../../session/session';
import { db, DB_NAME, draftRowSchema, fileRowSchema, outboxRowSchema, readRows } from '../../../offline/db';
import { readDraftRow } from '../../../offline/drafts';
import { setUploadTransport } from '../../../offline/multipart-upload';
import { startSync, syncNow } from '../../../offline/sync-engine';
import { fakeServer, jsonResponse, resetOffline, signedInStore, type SentCall } from '../../../test/offline-test-support';

/**
 * The device store as the version before the mutation registry wrote it (schema versions 1 and 2,
 * copied here as they were): whatever a user left on the device then is read, migrated and sent by
 * the new code, never lost.
 */
function openPreviousSchema(): Dexie {
  const previous = new Dexie(DB_NAME);
  previous.version(1).stores({
    drafts: 'id, userId',
    outbox: '++seq, &id, userId',
    uploads: 'localId, userId, [userId+applicationId]',
    idMap: 'localId, userId',
    cache: 'id, userId',
    results: 'id, userId, at',
    meta: 'id',
  });
  previous.version(2).stores({
    drafts: 'id, userId, [userId+status]',
    uploads: 'localId, userId, [userId+applicationId], [userId+status]',
  });
  return previous;
}

const LOCAL = 'local-0b0e5f3c-1111-4222-8333-944455556666';
const UPLOAD = 'upload-0c0e5f3c-1111-4222-8333-944455556666';
const pdf = new TextEncoder().encode('%PDF-1.4 test').buffer;

const drafts = [
  {
    id: `1|application:${LOCAL}:personal`,
    userId: 1,
    key: `application:${LOCAL}:personal`,
    value: { firstName: 'Ann', lastName: 'Lee' },
    baseVersion: 0,
    updatedAt: 5,
    status: 'queued',
  },
  {
    id: `1|application:${LOCAL}:case`,
    userId: 1,
    key: `application:${LOCAL}:case`,
    value: { caseRef: 'C1' },
    baseVersion: 0,
    updatedAt: 6,
    status: 'queued',
  },
  {
    id: '1|application:7:financial',
    userId: 1,
    key: 'application:7:financial',
    value: { income: 2 },
    baseVersion: 3,
    updatedAt: 7,
    status: 'editing',
  },
  // Written by the first version: no status, no updatedAt (the schema's defaults fill them in).
  { id: '1|application:8:case', userId: 1, key: 'application:8:case', value: { caseRef: 'old' } },
  {
    id: '1|application:9:asset',
    userId: 1,
    key: 'application:9:asset',
    value: {},
    baseVersion: 2,
    updatedAt: 8,
    status: 'rejected',
    serverCodes: { documents: 'required' },
    serverError: 'validation',
  },
];

const outbox = [
  {
    id: 'm-create',
    userId: 1,
    kind: 'createApplication',
    payload: { localId: LOCAL, personal: { firstName: 'Ann', lastName: 'Lee' } },
    draftKey: `application:${LOCAL}:personal`,
    draftUpdatedAt: 5,
    createdAt: 1,
    attempts: 0,
  },
  { id: 'm-upload', userId: 1, kind: 'uploadFile', payload: { localId: UPLOAD }, createdAt: 2, attempts: 0 },
  {
    id: 'm-save',
    userId: 1,
    kind: 'saveStep',
    payload: { applicationId: LOCAL, step: 'case', baseVersion: 0, data: { caseRef: 'C1' } },
    draftKey: `application:${LOCAL}:case`,
    draftUpdatedAt: 6,
    createdAt: 3,
    attempts: 0,
  },
  { id: 'm-submit', userId: 1, kind: 'submitApplication', payload: { applicationId: LOCAL }, createdAt: 4, attempts: 1 },
  // Written by the first version: no createdAt, no attempts.
  { id: 'm-delete', userId: 1, kind: 'deleteFile', payload: { fileKey: 'files/old.pdf' } },
];

const upload = {
  localId: UPLOAD,
  userId: 1,
  applicationId: LOCAL,
  type: 'formE',
  fileName: 'form-e.pdf',
  mimeType: 'application/pdf',
  size: pdf.byteLength,
  data: pdf,
  status: 'queued',
  progress: 0,
  createdAt: 2,
};

let store: AppStore;
let stop: (() => void) | undefined;

beforeEach(async () => {
  await resetOffline();
  db.close();
  await Dexie.delete(DB_NAME);
  const previous = openPreviousSchema();
  await previous.open();
  await previous.table('drafts').bulkPut(drafts);
  await previous.table('outbox').bulkAdd(outbox);
  await previous.table('uploads').put(upload);
  await previous
    .table('cache')
    .put({ id: '1|applications?page=1', userId: 1, key: 'applications?page=1', data: { items: [] }, savedAt: 1 });
  previous.close();
  await db.open();
  store = signedInStore();
});

afterEach(() => {
  stop?.();
  stop = undefined;
});

describe('data stored by the previous schema', () => {
  it('finds every draft and every queued write intact', async () => {
    const storedDrafts = readRows('drafts', draftRowSchema, await db.drafts.toArray());
    expect(storedDrafts).toHaveLength(drafts.length);
    for (const draft of drafts) expect(await readDraftRow(1, draft.key)).toMatchObject({ key: draft.key, value: draft.value });
    expect(await readDraftRow(1, 'application:8:case')).toMatchObject({ status: 'editing', baseVersion: 0, updatedAt: 0 });

    const queued = readRows('outbox', outboxRowSchema, await db.outbox.orderBy('seq').toArray());
    expect(queued.map((row) => [row.id, row.kind, row.payload])).toEqual(outbox.map((row) => [row.id, row.kind, row.payload]));

    const files = readRows('uploads', fileRowSchema, await db.uploads.toArray());
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ localId: UPLOAD, owner: LOCAL, fileName: 'form-e.pdf', status: 'queued' });
    expect(files[0]).not.toHaveProperty('applicationId');
    expect(new Uint8Array(files[0]!.data!)).toEqual(new Uint8Array(pdf));
    expect(await db.uploads.where('[userId+owner]').equals([1, LOCAL]).count()).toBe(1);
  });

  it('sends every queued write of the previous schema once online', async () => {
    const server = fakeServer({
      'POST /applications/create': () =>
        jsonResponse(201, { id: 42, journey: { personal: {} }, journeyVersions: { personal: 1 } }),
      'POST /applications/update/case': (call: SentCall) =>
        jsonResponse(200, { data: (call.body as { journeyData: unknown }).journeyData, version: 1 }),
      'POST /applications/state/update': () => jsonResponse(200, { id: 42, status: 'submitted' }),
      'POST /applications/file/delete': () => jsonResponse(200, {}),
    });
    const uploaded: string[] = [];
    setUploadTransport(async ({ url, form }) => {
      uploaded.push(`${new URL(url).pathname.replace(/^\/api/, '')} ${String(form.get('applicationId'))}`);
      return { status: 201, body: { id: 100, key: 'files/form-e.pdf' }, retryAfter: null };
    });
    stop = startSync(store);
    await syncNow();
    await syncNow();
    expect(uploaded).toEqual(['/applications/file/upload 42']);
    const sent = [...server.calls.map((call) => call.path), ...uploaded.map((entry) => entry.split(' ')[0]!)].sort();
    expect(sent).toEqual(
      [
        '/applications/create',
        '/applications/file/delete',
        '/applications/file/upload',
        '/applications/state/update',
        '/applications/update/case',
      ].sort(),
    );
    expect(server.calls.find((call) => call.path === '/applications/update/case')?.body).toMatchObject({ applicationId: 42 });
    expect(server.calls.find((call) => call.path === '/applications/state/update')?.body).toMatchObject({ applicationId: 42 });
    expect(server.calls.find((call) => call.path === '/applications/create')?.idempotencyKey).toBe('m-create');
    expect(await db.outbox.count()).toBe(0);
    // The sent drafts are gone; the ones never queued stay as they were.
    expect(await readDraftRow(1, `application:${LOCAL}:case`)).toBeUndefined();
    expect(await readDraftRow(1, 'application:42:case')).toBeUndefined();
    expect(await readDraftRow(1, 'application:7:financial')).toMatchObject({ value: { income: 2 } });
  });
});
