// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import './application-mutations';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionAtom, startSession, type AppStore } from '../../../session/session';
import { db, draftRowId } from '../../../offline/db';
import { readDraftRow, writeDraft } from '../../../offline/drafts';
import { newLocalApplicationId, stepDraftKey } from './application-ids';
import { serverIdOf } from '../../../offline/local-ids';
import { countUnsent, enqueue, waitForResult } from '../../../offline/outbox';
import { backoffDelay, BACKOFF_BASE_MS, BACKOFF_MAX_MS, PARALLEL_SCOPES, startSync, syncNow } from '../../../offline/sync-engine';
import {
  jsonResponse,
  fakeServer,
  resetOffline,
  signedInStore,
  testUser,
  type SentCall,
} from '../../../test/offline-test-support';

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

describe('outbox and sync engine', () => {
  it('sends queued writes in order, each with its id as Idempotency-Key', async () => {
    const server = fakeServer(saveRoutes());
    server.offline = true;
    stop = startSync(store);
    const ids = [
      await saveStep('personal', 7, { name: 'A' }),
      await saveStep('case', 7, { caseRef: 'C1' }),
      await saveStep('financial', 7, { income: 1 }),
    ];
    await syncNow();
    expect(await db.outbox.count()).toBe(3);

    server.offline = false;
    await syncNow();
    expect(server.calls.map((call) => call.path)).toEqual([
      '/applications/update/personal',
      '/applications/update/case',
      '/applications/update/financial',
    ]);
    expect(server.calls.map((call) => call.idempotencyKey)).toEqual(ids);
    expect(server.calls.every((call) => call.authorization === 'Bearer token-1')).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    expect(await waitForResult(ids[2]!)).toEqual({ status: 'done', body: { data: { financial: { income: 1 } }, version: 1 } });
  });

  it('reuses the idempotency key when a send is retried', async () => {
    let first = true;
    const server = fakeServer({
      'POST /applications/update/case': (call) => {
        if (first) {
          first = false;
          return jsonResponse(503, { error: 'unavailable' });
        }
        return saveRoute(2)(call);
      },
    });
    stop = startSync(store);
    const id = await saveStep('case', 7, { caseRef: 'C1' });
    expect(await waitForResult(id, 5_000)).toEqual({ status: 'queued' });
    expect(await db.outbox.count()).toBe(1);
    await syncNow();
    expect(server.calls.map((call) => call.idempotencyKey)).toEqual([id, id]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('keeps the queue while offline and answers waitForResult with queued', async () => {
    const server = fakeServer(saveRoutes());
    server.offline = true;
    stop = startSync(store);
    const id = await saveStep('case', 7, { caseRef: 'C1' });
    expect(await waitForResult(id, 5_000)).toEqual({ status: 'queued' });
    expect(await db.outbox.count()).toBe(1);
    expect(await countUnsent(1)).toBe(1);
  });

  it('resumes on the online event', async () => {
    const server = fakeServer(saveRoutes());
    server.offline = true;
    stop = startSync(store);
    const id = await saveStep('case', 7, { caseRef: 'C1' });
    expect(await waitForResult(id, 5_000)).toEqual({ status: 'queued' });

    server.offline = false;
    window.dispatchEvent(new Event('online'));
    await expect(waitForResult(id, 5_000)).resolves.toMatchObject({ status: 'done' });
    expect(await db.outbox.count()).toBe(0);
  });

  it('answers done when online', async () => {
    fakeServer(saveRoutes(4));
    stop = startSync(store);
    const id = await saveStep('case', 7, { caseRef: 'C1' });
    expect(await waitForResult(id, 5_000)).toEqual({ status: 'done', body: { data: { case: { caseRef: 'C1' } }, version: 4 } });
  });

  it('pauses on 401 until the user signs in again', async () => {
    let authorized = false;
    const server = fakeServer({
      'POST /applications/update/case': (call) => (authorized ? saveRoute()(call) : jsonResponse(401, { error: 'unauthorized' })),
    });
    stop = startSync(store);
    const id = await saveStep('case', 7, { caseRef: 'C1' });
    expect(await waitForResult(id, 5_000)).toEqual({ status: 'queued' });
    // The middleware ended the session; the write stays on the device.
    expect(store.get(sessionAtom).status).toBe('signedOut');
    expect(await db.outbox.count()).toBe(1);

    authorized = true;
    await syncNow();
    expect(server.calls).toHaveLength(1);

    startSession(store, 'token-2', testUser());
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(server.calls.map((call) => call.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(server.calls[0]!.idempotencyKey).toBe(id);
    expect(server.calls[1]!.idempotencyKey).toBe(id);
  });

  it('sends only the signed-in user’s writes', async () => {
    const server = fakeServer(saveRoutes());
    server.offline = true;
    stop = startSync(store);
    await saveStep('case', 7, { caseRef: 'first user' });
    await syncNow();
    startSession(store, 'token-2', testUser(2));
    server.offline = false;
    await saveStep('case', 8, { caseRef: 'second user' });
    await syncNow();
    expect(server.calls.map((call) => (call.body as { applicationId: number }).applicationId)).toEqual([8]);
    expect(await db.outbox.count()).toBe(1);
  });

  it('400: the draft is rejected with the server’s codes, the write removed, the others go on', async () => {
    const server = fakeServer({
      ...saveRoutes(),
      'POST /applications/update/case': () => jsonResponse(400, { error: 'validation', fields: { caseRef: 'required' } }),
    });
    const caseKey = stepDraftKey(7, 'case');
    await writeDraft(1, caseKey, { caseRef: '' });
    stop = startSync(store);
    const rejected = await saveStep('case', 7, { caseRef: '' }, caseKey);
    const next = await saveStep('financial', 7, { income: 1 });
    expect(await waitForResult(rejected, 5_000)).toEqual({
      status: 'rejected',
      error: 'validation',
      fields: { caseRef: 'required' },
    });
    expect(await waitForResult(next, 5_000)).toMatchObject({ status: 'done' });
    expect(server.calls).toHaveLength(2);
    expect(await readDraftRow(1, caseKey)).toMatchObject({
      status: 'rejected',
      serverCodes: { caseRef: 'required' },
      serverError: 'validation',
      value: { caseRef: '' },
    });
    expect(await db.outbox.count()).toBe(0);
  });

  it('409 notEditable: the refusal’s details are kept with the refused draft, and cleared when it is sent again', async () => {
    const details = { statusChange: { status: 'submitted', at: '2026-07-01T13:05:00.000Z', by: 'client', name: 'Nina' } };
    let refuse = true;
    fakeServer({
      'POST /applications/update/case': () =>
        refuse ? jsonResponse(409, { error: 'notEditable', details }) : jsonResponse(200, { data: { case: {} }, version: 2 }),
    });
    const caseKey = stepDraftKey(7, 'case');
    await writeDraft(1, caseKey, { caseRef: 'mine' }, { baseVersion: 1 });
    stop = startSync(store);
    const id = await saveStep('case', 7, { caseRef: 'mine' }, caseKey);
    expect(await waitForResult(id, 5_000)).toEqual({ status: 'rejected', error: 'notEditable', fields: {}, details });
    expect(await readDraftRow(1, caseKey)).toMatchObject({
      status: 'rejected',
      serverError: 'notEditable',
      serverDetails: details,
    });

    refuse = false;
    const again = await saveStep('case', 7, { caseRef: 'mine' }, caseKey);
    expect((await readDraftRow(1, caseKey))?.serverDetails).toBeUndefined();
    expect(await waitForResult(again, 5_000)).toMatchObject({ status: 'done' });
  });

  it('409: the draft gets status conflict with the server’s copy', async () => {
    const current = { data: { case: { caseRef: 'theirs' } }, version: 5 };
    fakeServer({ 'POST /applications/update/case': () => jsonResponse(409, { error: 'conflict', current }) });
    const caseKey = stepDraftKey(7, 'case');
    await writeDraft(1, caseKey, { caseRef: 'mine' }, { baseVersion: 4 });
    stop = startSync(store);
    const id = await saveStep('case', 7, { caseRef: 'mine' }, caseKey);
    expect(await waitForResult(id, 5_000)).toEqual({ status: 'conflict', current });
    expect(await readDraftRow(1, caseKey)).toMatchObject({ status: 'conflict', conflict: current, value: { caseRef: 'mine' } });

    // Saving on top of the server's version settles the conflict.
    await writeDraft(1, caseKey, { caseRef: 'chosen' }, { baseVersion: 5 });
    const settled = await readDraftRow(1, caseKey);
    expect(settled).toMatchObject({ status: 'editing', baseVersion: 5 });
    expect(settled?.conflict).toBeUndefined();
  });

  it('different applications go side by side, at most PARALLEL_SCOPES at once; one application’s saves stay in order, each sent once', async () => {
    const versions = new Map<number, number>();
    let inFlight = 0;
    let most = 0;
    const server = fakeServer({
      'POST /applications/update/case': async (call: SentCall) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        const body = call.body as { applicationId: number; baseVersion: number; journeyData: unknown };
        const current = versions.get(body.applicationId) ?? 0;
        if (body.baseVersion !== current)
          return jsonResponse(409, { error: 'conflict', current: { data: {}, version: current } });
        versions.set(body.applicationId, current + 1);
        return jsonResponse(200, { data: body.journeyData, version: current + 1 });
      },
    });
    server.offline = true;
    stop = startSync(store);
    const ids: string[] = [];
    // Queued application by application, as the wizard does: 6 applications, 3 saves each.
    for (let app = 1; app <= 6; app++)
      for (let save = 0; save < 3; save++)
        ids.push(
          await enqueue({
            kind: 'saveStep',
            applicationId: app,
            step: 'case',
            baseVersion: save,
            data: { caseRef: `${app}-${save}` },
          }),
        );
    server.offline = false;
    await syncNow();
    expect(most).toBe(PARALLEL_SCOPES);
    for (let app = 1; app <= 6; app++) {
      const sent = server.calls.filter((call) => (call.body as { applicationId: number }).applicationId === app);
      expect(sent.map((call) => (call.body as { journeyData: { case: { caseRef: string } } }).journeyData.case.caseRef)).toEqual([
        `${app}-0`,
        `${app}-1`,
        `${app}-2`,
      ]);
      expect(versions.get(app)).toBe(3);
    }
    expect(new Set(server.calls.map((call) => call.idempotencyKey)).size).toBe(18);
    for (const id of ids) expect(await waitForResult(id)).toMatchObject({ status: 'done' });
    expect(await db.outbox.count()).toBe(0);
  });

  it('the same step saved twice offline: the second is based on the version the first made', async () => {
    let version = 3;
    const server = fakeServer({
      'POST /applications/update/case': (call: SentCall) => {
        const body = call.body as { baseVersion: number; journeyData: unknown };
        if (body.baseVersion !== version) return jsonResponse(409, { error: 'conflict', current: { data: {}, version } });
        version += 1;
        return jsonResponse(200, { data: body.journeyData, version });
      },
    });
    server.offline = true;
    stop = startSync(store);
    const first = await enqueue({ kind: 'saveStep', applicationId: 7, step: 'case', baseVersion: 3, data: { caseRef: 'C1' } });
    const second = await enqueue({ kind: 'saveStep', applicationId: 7, step: 'case', baseVersion: 3, data: { caseRef: 'C2' } });
    const other = await enqueue({ kind: 'saveStep', applicationId: 8, step: 'case', baseVersion: 3, data: { caseRef: 'X' } });
    server.offline = false;
    await syncNow();
    const sent = server.calls.map((call) => call.body as { applicationId: number; baseVersion: number });
    expect(sent.filter((body) => body.applicationId === 7).map((body) => body.baseVersion)).toEqual([3, 4]);
    // The other application goes side by side with the first save, not after both (decision 380).
    expect(sent.map((body) => body.applicationId)).toEqual([7, 8, 7]);
    expect(await waitForResult(first)).toMatchObject({ status: 'done' });
    expect(await waitForResult(second)).toMatchObject({ status: 'done', body: { version: 5 } });
    // Another application's save keeps its own base (here the fake server's single counter refuses it).
    expect(await waitForResult(other)).toMatchObject({ status: 'conflict' });
  });

  it('2xx clears the draft if unchanged since queued, else keeps it as editing on the new version', async () => {
    fakeServer(saveRoutes(6));
    const unchanged = stepDraftKey(7, 'case');
    const changed = stepDraftKey(7, 'financial');
    await writeDraft(1, unchanged, { caseRef: 'C1' });
    await writeDraft(1, changed, { income: 1 });
    const server = fakeServer(saveRoutes(6));
    server.offline = true;
    stop = startSync(store);
    await saveStep('case', 7, { caseRef: 'C1' }, unchanged);
    await saveStep('financial', 7, { income: 1 }, changed);
    expect(await readDraftRow(1, unchanged)).toMatchObject({ status: 'queued' });
    await syncNow();
    await writeDraft(1, changed, { income: 2 });

    server.offline = false;
    await syncNow();
    expect(await readDraftRow(1, unchanged)).toBeUndefined();
    expect(await readDraftRow(1, changed)).toMatchObject({ status: 'editing', baseVersion: 6, value: { income: 2 } });
  });

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

  it('a write for an application whose create was refused waits; the others go on', async () => {
    const server = fakeServer({
      'POST /applications/create': () => jsonResponse(400, { error: 'validation', fields: { login: 'login' } }),
      ...saveRoutes(),
    });
    stop = startSync(store);
    const localId = newLocalApplicationId();
    const personalKey = stepDraftKey(localId, 'personal');
    await writeDraft(1, personalKey, { email: 'taken@example.com' });
    await enqueue({
      kind: 'createApplication',
      localId,
      personal: { email: 'taken@example.com' } as never,
      draftKey: personalKey,
    });
    const blocked = await saveStep('case', localId, { caseRef: 'C1' });
    const other = await saveStep('case', 9, { caseRef: 'C9' });
    expect(await waitForResult(other, 5_000)).toMatchObject({ status: 'done' });
    expect(await waitForResult(blocked, 5_000)).toEqual({ status: 'queued' });
    expect(await readDraftRow(1, personalKey)).toMatchObject({ status: 'rejected', serverCodes: { login: 'login' } });
    expect(server.calls.map((call) => call.path)).toEqual(['/applications/create', '/applications/update/case']);
  });

  it('submits with the resolved id', async () => {
    const server = fakeServer({ 'POST /applications/state/update': () => jsonResponse(200, { id: 7, status: 'submitted' }) });
    stop = startSync(store);
    const id = await enqueue({ kind: 'submitApplication', applicationId: 7 });
    expect(await waitForResult(id, 5_000)).toMatchObject({ status: 'done' });
    expect(server.calls[0]).toMatchObject({ body: { applicationId: 7, state: 'submitted' }, idempotencyKey: id });
  });

  it('backs off exponentially with jitter, up to a ceiling', () => {
    expect(backoffDelay(0, 0)).toBe(BACKOFF_BASE_MS / 2);
    expect(backoffDelay(0, 1)).toBe(BACKOFF_BASE_MS);
    expect(backoffDelay(3, 1)).toBe(BACKOFF_BASE_MS * 8);
    expect(backoffDelay(30, 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(30, 0)).toBe(BACKOFF_MAX_MS / 2);
  });

  it('an outbox row of a broken shape is reported and skipped, the rest is sent', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const server = fakeServer(saveRoutes());
    await db.outbox.add({ id: 'broken', userId: 1, kind: 'unknownKind', payload: null } as never);
    stop = startSync(store);
    const id = await saveStep('case', 7, { caseRef: 'C1' });
    expect(await waitForResult(id, 5_000)).toMatchObject({ status: 'done' });
    expect(server.calls).toHaveLength(1);
    expect(await db.outbox.count()).toBe(1);
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

  it('a save made after the user’s own earlier save went through is sent on the version it made', async () => {
    let version = 3;
    const server = fakeServer({
      'POST /applications/update/case': (call: SentCall) => {
        const body = call.body as { baseVersion: number; journeyData: unknown };
        if (body.baseVersion !== version) return jsonResponse(409, { error: 'conflict', current: { data: {}, version } });
        version += 1;
        return jsonResponse(200, { data: body.journeyData, version });
      },
    });
    stop = startSync(store);
    const first = await enqueue({ kind: 'saveStep', applicationId: 7, step: 'case', baseVersion: 3, data: { caseRef: 'C1' } });
    expect(await waitForResult(first, 5_000)).toMatchObject({ status: 'done', body: { version: 4 } });
    // The step reopened from a copy read before that save (its version still 3).
    const second = await enqueue({ kind: 'saveStep', applicationId: 7, step: 'case', baseVersion: 3, data: { caseRef: 'C2' } });
    expect(await waitForResult(second, 5_000)).toMatchObject({ status: 'done', body: { version: 5 } });
    // Someone else's save in between is still a conflict.
    version = 9;
    const third = await enqueue({ kind: 'saveStep', applicationId: 7, step: 'case', baseVersion: 3, data: { caseRef: 'C3' } });
    expect(await waitForResult(third, 5_000)).toMatchObject({ status: 'conflict' });
    expect(server.calls.map((call) => (call.body as { baseVersion: number }).baseVersion)).toEqual([3, 4, 5]);
  });

  it('an edit addressed to a local application after its create went through lands on the server id’s draft', async () => {
    fakeServer({ 'POST /applications/create': () => jsonResponse(201, { id: 42, status: 'incomplete' }) });
    stop = startSync(store);
    const localId = newLocalApplicationId();
    const create = await enqueue({ kind: 'createApplication', localId, personal: { name: 'Ada' } as never });
    expect(await waitForResult(create, 5_000)).toMatchObject({ status: 'done' });
    // The wizard still open on the local id flushes the last keystrokes.
    await writeDraft(1, stepDraftKey(localId, 'case'), { caseRef: 'typed during the switch' });
    expect(await readDraftRow(1, stepDraftKey(42, 'case'))).toMatchObject({ value: { caseRef: 'typed during the switch' } });
    expect(await readDraftRow(1, stepDraftKey(localId, 'case'))).toBeUndefined();
  });
});
