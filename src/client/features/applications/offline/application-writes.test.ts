// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import './application-mutations';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppStore } from '../../../session/session';
import { db, draftRowId } from '../../../offline/db';
import { readDraftRow, writeDraft } from '../../../offline/drafts';
import { newLocalApplicationId, stepDraftKey } from './application-ids';
import { serverIdOf } from '../../../offline/local-ids';
import { enqueue, waitForResult } from '../../../offline/outbox';
import { startSync, syncNow } from '../../../offline/sync-engine';
import { jsonResponse, fakeServer, resetOffline, signedInStore, type SentCall } from '../../../test/offline-test-support';

function saveRoute(version = 1) {
  return (call: SentCall) => {
    const body = call.body as { journeyData: Record<string, unknown> };
    return jsonResponse(200, { data: body.journeyData, version });
  };
}

const saveRoutes = (version = 1) => ({
  'POST /applications/update/personal': saveRoute(version),
  'POST /applications/update/case': saveRoute(version),
  'POST /applications/update/financial': saveRoute(version),
  'POST /applications/update/asset': saveRoute(version),
});

let store: AppStore;
let stop: () => void;

beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
});

afterEach(() => {
  stop?.();
});

function saveStep(
  step: 'personal' | 'case' | 'financial' | 'asset',
  applicationId: number | string,
  data: unknown,
  draftKey?: string,
) {
  return enqueue({ kind: 'saveStep', applicationId, step, baseVersion: 0, data, ...(draftKey ? { draftKey } : {}) });
}

/**
 * The application's own writes through the engine: the requests they make, an application created
 * offline, and a submit that waits for its application's steps (the engine itself: offline/sync-engine.test.ts).
 */
describe('the application’s queued writes', () => {
  it('an application created offline: later saves and its drafts follow the server id', async () => {
    const server = fakeServer({
      'POST /applications/create': () => jsonResponse(201, { id: 42, status: 'incomplete' }),
      ...saveRoutes(),
    });
    server.offline = true;
    stop = startSync(store);
    const localId = newLocalApplicationId();
    expect(localId).toMatch(/^local-[0-9a-f-]{36}$/);
    const personalKey = stepDraftKey(localId, 'personal');
    await writeDraft(1, personalKey, { name: 'Ada' });
    await writeDraft(1, stepDraftKey(localId, 'financial'), { income: 3 });
    const create = await enqueue({
      kind: 'createApplication',
      localId,
      personal: { name: 'Ada' } as never,
      draftKey: personalKey,
    });
    const save = await saveStep('case', localId, { caseRef: 'C1' }, stepDraftKey(localId, 'case'));
    expect(await waitForResult(save, 5_000)).toEqual({ status: 'queued' });
    expect(server.calls).toHaveLength(0);

    server.offline = false;
    await syncNow();
    expect(server.calls.map((call) => call.path)).toEqual(['/applications/create', '/applications/update/case']);
    expect(server.calls[0]!.idempotencyKey).toBe(create);
    expect(server.calls[0]!.body).toEqual({ journeyData: { personal: { name: 'Ada' } } });
    expect(server.calls[1]!.body).toMatchObject({ applicationId: 42, journeyData: { case: { caseRef: 'C1' } } });
    expect(await serverIdOf(localId)).toBe(42);
    // The create's own draft is cleared; a draft typed offline for another step now has the real id.
    expect(await readDraftRow(1, personalKey)).toBeUndefined();
    expect(await readDraftRow(1, stepDraftKey(42, 'financial'))).toMatchObject({ value: { income: 3 } });
    expect(await db.drafts.get(draftRowId(1, stepDraftKey(localId, 'financial')))).toBeUndefined();
  });

  it('submits with the resolved id', async () => {
    const server = fakeServer({ 'POST /applications/state/update': () => jsonResponse(200, { id: 7, status: 'submitted' }) });
    stop = startSync(store);
    const id = await enqueue({ kind: 'submitApplication', applicationId: 7 });
    expect(await waitForResult(id, 5_000)).toMatchObject({ status: 'done' });
    expect(server.calls[0]).toMatchObject({ body: { applicationId: 7, state: 'submitted' }, idempotencyKey: id });
  });

  it('a submit waits while a save of its application is in conflict, and goes after the corrected save', async () => {
    let caseVersion = 5;
    const server = fakeServer({
      'POST /applications/update/case': (call) => {
        const body = call.body as { baseVersion: number; journeyData: unknown };
        if (body.baseVersion !== caseVersion) {
          return jsonResponse(409, {
            error: 'conflict',
            current: { data: { case: { caseRef: 'theirs' } }, version: caseVersion },
          });
        }
        caseVersion += 1;
        return jsonResponse(200, { data: body.journeyData, version: caseVersion });
      },
      'POST /applications/state/update': () => jsonResponse(200, { id: 7, status: 'submitted' }),
    });
    server.offline = true;
    stop = startSync(store);
    const caseKey = stepDraftKey(7, 'case');
    await writeDraft(1, caseKey, { caseRef: 'mine' }, { baseVersion: 4 });
    await enqueue({
      kind: 'saveStep',
      applicationId: 7,
      step: 'case',
      baseVersion: 4,
      data: { caseRef: 'mine' },
      draftKey: caseKey,
    });
    const submit = await enqueue({ kind: 'submitApplication', applicationId: 7 });
    server.offline = false;
    await syncNow();
    // Not submitted over the user's unsettled step.
    expect(server.calls.map((call) => call.path)).toEqual(['/applications/update/case']);
    expect(await readDraftRow(1, caseKey)).toMatchObject({ status: 'conflict' });
    expect(await db.outbox.count()).toBe(1);

    // The user chooses on the server's version and saves again: that save goes first, then the submit.
    await writeDraft(1, caseKey, { caseRef: 'chosen' }, { baseVersion: 5 });
    await enqueue({
      kind: 'saveStep',
      applicationId: 7,
      step: 'case',
      baseVersion: 5,
      data: { caseRef: 'chosen' },
      draftKey: caseKey,
    });
    await syncNow();
    expect(server.calls.map((call) => call.path)).toEqual([
      '/applications/update/case',
      '/applications/update/case',
      '/applications/state/update',
    ]);
    expect(await waitForResult(submit, 5_000)).toMatchObject({ status: 'done' });
  });

  it('a submit of an application created offline waits for a refused step filed under its server id', async () => {
    const server = fakeServer({
      'POST /applications/create': () => jsonResponse(201, { id: 42, status: 'incomplete' }),
      'POST /applications/update/case': () => jsonResponse(400, { error: 'validation', fields: { caseRef: 'required' } }),
      'POST /applications/state/update': () => jsonResponse(200, { id: 42, status: 'submitted' }),
    });
    server.offline = true;
    stop = startSync(store);
    const localId = newLocalApplicationId();
    await enqueue({ kind: 'createApplication', localId, personal: { name: 'Ada' } as never });
    const caseKey = stepDraftKey(localId, 'case');
    await writeDraft(1, caseKey, { caseRef: '' });
    await enqueue({
      kind: 'saveStep',
      applicationId: localId,
      step: 'case',
      baseVersion: 0,
      data: { caseRef: '' },
      draftKey: caseKey,
    });
    await enqueue({ kind: 'submitApplication', applicationId: localId });
    server.offline = false;
    await syncNow();
    expect(server.calls.map((call) => call.path)).toEqual(['/applications/create', '/applications/update/case']);
    expect(await readDraftRow(1, stepDraftKey(42, 'case'))).toMatchObject({ status: 'rejected' });
  });
});
