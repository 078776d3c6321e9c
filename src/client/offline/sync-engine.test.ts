// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../test/test-record-writes';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as v from 'valibot';
import { sessionAtom, startSession, type AppStore } from '../session/session';
import { db, draftRowId } from './db';
import { readDraftRow, writeDraft } from './drafts';
import { serverIdOf } from './local-ids';
import { registerMutation } from './mutation-registry';
import { countUnsent, enqueue, waitForResult } from './outbox';
import { classify } from './send-outcome';
import { backoffDelay, BACKOFF_BASE_MS, BACKOFF_MAX_MS, startSync, syncNow } from './sync-engine';
import { PARALLEL_SCOPES } from './sync-send';
import { fakeServer, jsonResponse, resetOffline, signedInStore, testUser, type SentCall } from '../test/offline-test-support';
import { newLocalRecordId, partDraftKey, queueSave } from '../test/test-record-writes';

/** A fake server's save route: answers with what was sent and `version`. */
function saveRoute(version = 1) {
  return (call: SentCall) => jsonResponse(200, { data: (call.body as { data: unknown }).data, version });
}

const saveRoutes = (version = 1) => ({
  'POST /records/save/personal': saveRoute(version),
  'POST /records/save/case': saveRoute(version),
  'POST /records/save/financial': saveRoute(version),
});

function savePart(part: string, id: number | string, data: unknown, draftKey?: string) {
  return queueSave(id, part, data, draftKey ? { draftKey } : {});
}

// A write of this test's own, each in its own scope; the engine fails to write the answer of 'bad'.
declare module './mutation-registry' {
  interface MutationKinds {
    settleTestWrite: { name: string };
  }
}
registerMutation({
  kind: 'settleTestWrite',
  payload: v.object({ name: v.string() }),
  scope: ({ name }) => `settle-test:${name}`,
  send: async (_payload, ctx) => {
    const response = await fetch(`${location.origin}/api/records`, {
      method: 'POST',
      body: '{}',
      headers: { 'Idempotency-Key': ctx.idempotencyKey },
    });
    return classify(response.status, await response.json());
  },
  onDone: async ({ name }) => {
    if (name === 'bad') throw new Error('cannot be written');
  },
});

let store: AppStore;
let stop: (() => void) | undefined;

beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
});

afterEach(() => {
  stop?.();
  stop = undefined;
  vi.unstubAllGlobals();
});

describe('answers written together (decision 382)', () => {
  it('an answer that cannot be written fails alone: the others of its group are written', async () => {
    const server = fakeServer({
      'POST /records': async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return jsonResponse(200, { ok: true });
      },
    });
    server.offline = true;
    stop = startSync(store);
    const ids = new Map<string, string>();
    for (const name of ['a', 'bad', 'b', 'c']) ids.set(name, await enqueue({ kind: 'settleTestWrite', name }));
    server.offline = false;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await syncNow();
    const sent = server.calls.map((call) => [...ids].find(([, id]) => id === call.idempotencyKey)?.[0]);
    // Each written answer's write went once; the one that could not be written may go again, under its key.
    for (const name of ['a', 'b', 'c']) expect(sent.filter((sentName) => sentName === name)).toHaveLength(1);
    expect(sent.every((name) => name !== undefined)).toBe(true);
    for (const name of ['a', 'b', 'c']) expect(await waitForResult(ids.get(name)!, 100)).toMatchObject({ status: 'done' });
    // Kept, to be sent again under the same key (the server answers a replay with its first answer).
    const left = await db.outbox.toArray();
    expect(left.map((row) => row.id)).toEqual([ids.get('bad')]);
    expect(await db.results.get(ids.get('bad')!)).toBeUndefined();
  });
});

describe('answers written together, each send’s slot free at its answer (docs/decisions.md (606))', () => {
  it('another record’s write is sent while an answer waits to be written; the group’s answers make one change count write', async () => {
    const ids = new Map<string, string>();
    /** Whether 'a' was still in the outbox (its answer not written yet) when 'e' reached the server. */
    let aWaitingWhenESent: boolean | undefined;
    const server = fakeServer({
      'POST /records': async (call: SentCall) => {
        const name = [...ids].find(([, id]) => id === call.idempotencyKey)?.[0];
        if (name === 'e') aWaitingWhenESent = (await db.outbox.toArray()).some((row) => row.id === ids.get('a'));
        // 'a' is answered first, while the other three of the first sends are still under way.
        if (name !== 'e') await new Promise((resolve) => setTimeout(resolve, name === 'a' ? 30 : 90));
        return jsonResponse(200, { ok: true });
      },
    });
    server.offline = true;
    stop = startSync(store);
    for (const name of ['a', 'b', 'c', 'd', 'e']) ids.set(name, await enqueue({ kind: 'settleTestWrite', name }));
    server.offline = false;
    const settling = vi.spyOn(db, 'transaction');
    const changesBefore = (await db.meta.get(`changed|${testUser().id}`)) as { count: number } | undefined;
    await syncNow();
    // The fifth record did not wait for the first answer to be written: the slot was free at the answer.
    expect(aWaitingWhenESent).toBe(true);
    for (const [name, id] of ids) expect(await waitForResult(id, 100), name).toMatchObject({ status: 'done' });
    expect(new Set(server.calls.map((call) => call.idempotencyKey)).size).toBe(5);
    // Five answers, written in fewer transactions than answers (gathered), and the change count grew by five.
    const written = settling.mock.calls.filter(([mode]) => mode === 'rw').length;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(5);
    const changesAfter = (await db.meta.get(`changed|${testUser().id}`)) as { count: number };
    expect(changesAfter.count - (changesBefore?.count ?? 0)).toBe(5);
  });

  it('a group’s answers are written with one request per store: its queued writes and drafts removed together, each draft read once', async () => {
    const server = fakeServer({
      'POST /records/save/case': async (call: SentCall) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return saveRoute()(call);
      },
    });
    server.offline = true;
    stop = startSync(store);
    const ids: string[] = [];
    for (const record of [1, 2, 3, 4]) {
      const key = partDraftKey(record, 'case');
      await writeDraft(testUser().id, key, { caseRef: `R${record}` });
      ids.push(await savePart('case', record, { caseRef: `R${record}` }, key));
    }
    server.offline = false;
    const removedOne = vi.spyOn(db.outbox, 'delete');
    const removedMany = vi.spyOn(db.outbox, 'bulkDelete');
    const draftsRemoved = vi.spyOn(db.drafts, 'bulkDelete');
    await syncNow();
    for (const id of ids) expect(await waitForResult(id, 100)).toMatchObject({ status: 'done' });
    expect(await db.outbox.count()).toBe(0);
    for (const record of [1, 2, 3, 4]) expect(await readDraftRow(testUser().id, partDraftKey(record, 'case'))).toBeUndefined();
    expect(removedOne).not.toHaveBeenCalled();
    // Fewer requests than answers: the four sends under way were answered together.
    expect(removedMany.mock.calls.length).toBeLessThan(4);
    expect(removedMany.mock.calls.flatMap(([seqs]) => [...seqs])).toHaveLength(4);
    expect(draftsRemoved.mock.calls.flatMap(([keys]) => [...keys])).toHaveLength(4);
  });
});

describe('the sync engine', () => {
  it('sends queued writes in order, each with its id as Idempotency-Key', async () => {
    const server = fakeServer(saveRoutes());
    server.offline = true;
    stop = startSync(store);
    const ids = [
      await savePart('personal', 7, { name: 'A' }),
      await savePart('case', 7, { caseRef: 'C1' }),
      await savePart('financial', 7, { income: 1 }),
    ];
    await syncNow();
    expect(await db.outbox.count()).toBe(3);

    server.offline = false;
    await syncNow();
    expect(server.calls.map((call) => call.path)).toEqual([
      '/records/save/personal',
      '/records/save/case',
      '/records/save/financial',
    ]);
    expect(server.calls.map((call) => call.idempotencyKey)).toEqual(ids);
    expect(server.calls.every((call) => call.authorization === 'Bearer token-1')).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    expect(await waitForResult(ids[2]!)).toEqual({ status: 'done', body: { data: { income: 1 }, version: 1 } });
  });

  it('reuses the idempotency key when a send is retried', async () => {
    let first = true;
    const server = fakeServer({
      'POST /records/save/case': (call) => {
        if (first) {
          first = false;
          return jsonResponse(503, { error: 'unavailable' });
        }
        return saveRoute(2)(call);
      },
    });
    stop = startSync(store);
    const id = await savePart('case', 7, { caseRef: 'C1' });
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
    const id = await savePart('case', 7, { caseRef: 'C1' });
    expect(await waitForResult(id, 5_000)).toEqual({ status: 'queued' });
    expect(await db.outbox.count()).toBe(1);
    expect(await countUnsent(1)).toBe(1);
  });

  it('resumes on the online event', async () => {
    const server = fakeServer(saveRoutes());
    server.offline = true;
    stop = startSync(store);
    const id = await savePart('case', 7, { caseRef: 'C1' });
    expect(await waitForResult(id, 5_000)).toEqual({ status: 'queued' });

    server.offline = false;
    window.dispatchEvent(new Event('online'));
    await expect(waitForResult(id, 5_000)).resolves.toMatchObject({ status: 'done' });
    expect(await db.outbox.count()).toBe(0);
  });

  it('answers done when online', async () => {
    fakeServer(saveRoutes(4));
    stop = startSync(store);
    const id = await savePart('case', 7, { caseRef: 'C1' });
    expect(await waitForResult(id, 5_000)).toEqual({ status: 'done', body: { data: { caseRef: 'C1' }, version: 4 } });
  });

  it('pauses on 401 until the user signs in again', async () => {
    let authorized = false;
    const server = fakeServer({
      'POST /records/save/case': (call) => (authorized ? saveRoute()(call) : jsonResponse(401, { error: 'unauthorized' })),
    });
    stop = startSync(store);
    const id = await savePart('case', 7, { caseRef: 'C1' });
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
    await savePart('case', 7, { caseRef: 'first user' });
    await syncNow();
    startSession(store, 'token-2', testUser(2));
    server.offline = false;
    await savePart('case', 8, { caseRef: 'second user' });
    await syncNow();
    expect(server.calls.map((call) => (call.body as { recordId: number }).recordId)).toEqual([8]);
    expect(await db.outbox.count()).toBe(1);
  });

  it('400: the draft is rejected with the server’s codes, the write removed, the others go on', async () => {
    const server = fakeServer({
      ...saveRoutes(),
      'POST /records/save/case': () => jsonResponse(400, { error: 'validation', fields: { caseRef: 'required' } }),
    });
    const caseKey = partDraftKey(7, 'case');
    await writeDraft(1, caseKey, { caseRef: '' });
    stop = startSync(store);
    const rejected = await savePart('case', 7, { caseRef: '' }, caseKey);
    const next = await savePart('financial', 7, { income: 1 });
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
      'POST /records/save/case': () =>
        refuse ? jsonResponse(409, { error: 'notEditable', details }) : jsonResponse(200, { data: { case: {} }, version: 2 }),
    });
    const caseKey = partDraftKey(7, 'case');
    await writeDraft(1, caseKey, { caseRef: 'mine' }, { baseVersion: 1 });
    stop = startSync(store);
    const id = await savePart('case', 7, { caseRef: 'mine' }, caseKey);
    expect(await waitForResult(id, 5_000)).toEqual({ status: 'rejected', error: 'notEditable', fields: {}, details });
    expect(await readDraftRow(1, caseKey)).toMatchObject({
      status: 'rejected',
      serverError: 'notEditable',
      serverDetails: details,
    });

    refuse = false;
    const again = await savePart('case', 7, { caseRef: 'mine' }, caseKey);
    expect((await readDraftRow(1, caseKey))?.serverDetails).toBeUndefined();
    expect(await waitForResult(again, 5_000)).toMatchObject({ status: 'done' });
  });

  it('409: the draft gets status conflict with the server’s copy', async () => {
    const current = { data: { case: { caseRef: 'theirs' } }, version: 5 };
    fakeServer({ 'POST /records/save/case': () => jsonResponse(409, { error: 'conflict', current }) });
    const caseKey = partDraftKey(7, 'case');
    await writeDraft(1, caseKey, { caseRef: 'mine' }, { baseVersion: 4 });
    stop = startSync(store);
    const id = await savePart('case', 7, { caseRef: 'mine' }, caseKey);
    expect(await waitForResult(id, 5_000)).toEqual({ status: 'conflict', current });
    expect(await readDraftRow(1, caseKey)).toMatchObject({ status: 'conflict', conflict: current, value: { caseRef: 'mine' } });

    // Saving on top of the server's version settles the conflict.
    await writeDraft(1, caseKey, { caseRef: 'chosen' }, { baseVersion: 5 });
    const settled = await readDraftRow(1, caseKey);
    expect(settled).toMatchObject({ status: 'editing', baseVersion: 5 });
    expect(settled?.conflict).toBeUndefined();
  });

  it('with sends unanswered, answers lost, a refusal and a conflict mid-way, each record’s saves reach the server in order, each taken once', async () => {
    type Answer = { status: number; body: unknown };
    /** What the server took, per record: the saves' numbers in the order taken. */
    const taken = new Map<number, number[]>();
    /** The server's first answer per Idempotency-Key, which a retry of the same write gets again. */
    const answers = new Map<string, Answer>();
    let calls = 0;
    const server = fakeServer({
      'POST /records/save/case': (call: SentCall) => {
        calls += 1;
        const kept = answers.get(call.idempotencyKey!);
        if (kept) return jsonResponse(kept.status, kept.body);
        const { recordId, data } = call.body as { recordId: number; data: { n: number } };
        // Some sends get no answer before anything is done: the next try is a first one.
        if (calls % 7 === 0) return jsonResponse(503, { error: 'unavailable' });
        let answer: Answer;
        if (recordId === 3 && data.n === 2)
          answer = { status: 400, body: { error: 'validation', fields: { caseRef: 'required' } } };
        else if (recordId === 5 && data.n === 1)
          answer = { status: 409, body: { error: 'conflict', current: { data: {}, version: 9 } } };
        else {
          taken.set(recordId, [...(taken.get(recordId) ?? []), data.n]);
          answer = { status: 200, body: { data, version: data.n + 1 } };
        }
        answers.set(call.idempotencyKey!, answer);
        // Taken, but the answer is lost on the way back: the retry, under the same key, is answered again.
        if (calls % 5 === 0) return jsonResponse(503, { error: 'unavailable' });
        return jsonResponse(answer.status, answer.body);
      },
    });
    server.offline = true;
    stop = startSync(store);
    const ids = new Map<string, string>();
    // Queued save by save across the records, so the outbox interleaves them.
    for (let n = 0; n < 5; n++)
      for (let record = 1; record <= 8; record++)
        ids.set(`${record}:${n}`, await queueSave(record, 'case', { n }, { baseVersion: n }));
    server.offline = false;
    for (let round = 0; round < 100 && (await db.outbox.count()) > 0; round++) await syncNow();

    expect(await db.outbox.count()).toBe(0);
    expect(calls).toBeGreaterThan(40);
    for (let record = 1; record <= 8; record++) {
      const refused = record === 3 ? 2 : record === 5 ? 1 : null;
      expect(taken.get(record)).toEqual([0, 1, 2, 3, 4].filter((n) => n !== refused));
      // Never sent ahead of an earlier save of its record, retries included.
      const sent = server.calls
        .filter((call) => (call.body as { recordId: number }).recordId === record)
        .map((call) => (call.body as { data: { n: number } }).data.n);
      expect(sent).toEqual([...sent].sort((a, b) => a - b));
    }
    for (const [name, id] of ids) {
      const expected = name === '3:2' ? 'rejected' : name === '5:1' ? 'conflict' : 'done';
      expect(await waitForResult(id, 100)).toMatchObject({ status: expected });
    }
  });

  it('different records go side by side, at most PARALLEL_SCOPES at once; one record’s saves stay in order, each sent once', async () => {
    const versions = new Map<number, number>();
    let inFlight = 0;
    let most = 0;
    const server = fakeServer({
      'POST /records/save/case': async (call: SentCall) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        const body = call.body as { recordId: number; baseVersion: number; data: unknown };
        const current = versions.get(body.recordId) ?? 0;
        if (body.baseVersion !== current)
          return jsonResponse(409, { error: 'conflict', current: { data: {}, version: current } });
        versions.set(body.recordId, current + 1);
        return jsonResponse(200, { data: body.data, version: current + 1 });
      },
    });
    server.offline = true;
    stop = startSync(store);
    const ids: string[] = [];
    // Queued record by record, as a form does: 6 records, 3 saves each.
    for (let record = 1; record <= 6; record++)
      for (let save = 0; save < 3; save++)
        ids.push(
          await enqueue({
            kind: 'testSave',
            recordId: record,
            part: 'case',
            baseVersion: save,
            data: { caseRef: `${record}-${save}` },
          }),
        );
    server.offline = false;
    await syncNow();
    expect(most).toBe(PARALLEL_SCOPES);
    for (let record = 1; record <= 6; record++) {
      const sent = server.calls.filter((call) => (call.body as { recordId: number }).recordId === record);
      expect(sent.map((call) => (call.body as { data: { caseRef: string } }).data.caseRef)).toEqual([
        `${record}-0`,
        `${record}-1`,
        `${record}-2`,
      ]);
      expect(versions.get(record)).toBe(3);
    }
    expect(new Set(server.calls.map((call) => call.idempotencyKey)).size).toBe(18);
    for (const id of ids) expect(await waitForResult(id)).toMatchObject({ status: 'done' });
    expect(await db.outbox.count()).toBe(0);
  });

  it('the same part saved twice offline: the second is based on the version the first made', async () => {
    let version = 3;
    const server = fakeServer({
      'POST /records/save/case': (call: SentCall) => {
        const body = call.body as { baseVersion: number; data: unknown };
        if (body.baseVersion !== version) return jsonResponse(409, { error: 'conflict', current: { data: {}, version } });
        version += 1;
        return jsonResponse(200, { data: body.data, version });
      },
    });
    server.offline = true;
    stop = startSync(store);
    const first = await enqueue({ kind: 'testSave', recordId: 7, part: 'case', baseVersion: 3, data: { caseRef: 'C1' } });
    const second = await enqueue({ kind: 'testSave', recordId: 7, part: 'case', baseVersion: 3, data: { caseRef: 'C2' } });
    const other = await enqueue({ kind: 'testSave', recordId: 8, part: 'case', baseVersion: 3, data: { caseRef: 'X' } });
    server.offline = false;
    await syncNow();
    const sent = server.calls.map((call) => call.body as { recordId: number; baseVersion: number });
    expect(sent.filter((body) => body.recordId === 7).map((body) => body.baseVersion)).toEqual([3, 4]);
    // The other record goes side by side with the first save, not after both (decision 380).
    expect(sent.map((body) => body.recordId)).toEqual([7, 8, 7]);
    expect(await waitForResult(first)).toMatchObject({ status: 'done' });
    expect(await waitForResult(second)).toMatchObject({ status: 'done', body: { version: 5 } });
    // Another record's save keeps its own base (here the fake server's single counter refuses it).
    expect(await waitForResult(other)).toMatchObject({ status: 'conflict' });
  });

  it('2xx clears the draft if unchanged since queued, else keeps it as editing on the new version', async () => {
    fakeServer(saveRoutes(6));
    const unchanged = partDraftKey(7, 'case');
    const changed = partDraftKey(7, 'financial');
    await writeDraft(1, unchanged, { caseRef: 'C1' });
    await writeDraft(1, changed, { income: 1 });
    const server = fakeServer(saveRoutes(6));
    server.offline = true;
    stop = startSync(store);
    await savePart('case', 7, { caseRef: 'C1' }, unchanged);
    await savePart('financial', 7, { income: 1 }, changed);
    expect(await readDraftRow(1, unchanged)).toMatchObject({ status: 'queued' });
    await syncNow();
    await writeDraft(1, changed, { income: 2 });

    server.offline = false;
    await syncNow();
    expect(await readDraftRow(1, unchanged)).toBeUndefined();
    expect(await readDraftRow(1, changed)).toMatchObject({ status: 'editing', baseVersion: 6, value: { income: 2 } });
  });

  it('a record created offline: later saves and its drafts follow the server id', async () => {
    const server = fakeServer({
      'POST /records/create': () => jsonResponse(201, { id: 42, status: 'incomplete' }),
      ...saveRoutes(),
    });
    server.offline = true;
    stop = startSync(store);
    const localId = newLocalRecordId();
    expect(localId).toMatch(/^local-[0-9a-f-]{36}$/);
    const personalKey = partDraftKey(localId, 'personal');
    await writeDraft(1, personalKey, { name: 'Ada' });
    await writeDraft(1, partDraftKey(localId, 'financial'), { income: 3 });
    const create = await enqueue({
      kind: 'testCreate',
      localId,
      data: { name: 'Ada' },
      draftKey: personalKey,
    });
    const save = await savePart('case', localId, { caseRef: 'C1' }, partDraftKey(localId, 'case'));
    expect(await waitForResult(save, 5_000)).toEqual({ status: 'queued' });
    expect(server.calls).toHaveLength(0);

    server.offline = false;
    await syncNow();
    expect(server.calls.map((call) => call.path)).toEqual(['/records/create', '/records/save/case']);
    expect(server.calls[0]!.idempotencyKey).toBe(create);
    expect(server.calls[0]!.body).toEqual({ data: { name: 'Ada' } });
    expect(server.calls[1]!.body).toMatchObject({ recordId: 42, data: { caseRef: 'C1' } });
    expect(await serverIdOf(localId)).toBe(42);
    // The create's own draft is cleared; a draft typed offline for another part now has the real id.
    expect(await readDraftRow(1, personalKey)).toBeUndefined();
    expect(await readDraftRow(1, partDraftKey(42, 'financial'))).toMatchObject({ value: { income: 3 } });
    expect(await db.drafts.get(draftRowId(1, partDraftKey(localId, 'financial')))).toBeUndefined();
  });

  it('a write for a record whose create was refused waits; the others go on', async () => {
    const server = fakeServer({
      'POST /records/create': () => jsonResponse(400, { error: 'validation', fields: { login: 'login' } }),
      ...saveRoutes(),
    });
    stop = startSync(store);
    const localId = newLocalRecordId();
    const personalKey = partDraftKey(localId, 'personal');
    await writeDraft(1, personalKey, { email: 'taken@example.com' });
    await enqueue({
      kind: 'testCreate',
      localId,
      data: { email: 'taken@example.com' },
      draftKey: personalKey,
    });
    const blocked = await savePart('case', localId, { caseRef: 'C1' });
    const other = await savePart('case', 9, { caseRef: 'C9' });
    expect(await waitForResult(other, 5_000)).toMatchObject({ status: 'done' });
    expect(await waitForResult(blocked, 5_000)).toEqual({ status: 'queued' });
    expect(await readDraftRow(1, personalKey)).toMatchObject({ status: 'rejected', serverCodes: { login: 'login' } });
    expect(server.calls.map((call) => call.path)).toEqual(['/records/create', '/records/save/case']);
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
    const id = await savePart('case', 7, { caseRef: 'C1' });
    expect(await waitForResult(id, 5_000)).toMatchObject({ status: 'done' });
    expect(server.calls).toHaveLength(1);
    expect(await db.outbox.count()).toBe(1);
  });

  it('a save made after the user’s own earlier save went through is sent on the version it made', async () => {
    let version = 3;
    const server = fakeServer({
      'POST /records/save/case': (call: SentCall) => {
        const body = call.body as { baseVersion: number; data: unknown };
        if (body.baseVersion !== version) return jsonResponse(409, { error: 'conflict', current: { data: {}, version } });
        version += 1;
        return jsonResponse(200, { data: body.data, version });
      },
    });
    stop = startSync(store);
    const first = await enqueue({ kind: 'testSave', recordId: 7, part: 'case', baseVersion: 3, data: { caseRef: 'C1' } });
    expect(await waitForResult(first, 5_000)).toMatchObject({ status: 'done', body: { version: 4 } });
    // The part reopened from a copy read before that save (its version still 3).
    const second = await enqueue({ kind: 'testSave', recordId: 7, part: 'case', baseVersion: 3, data: { caseRef: 'C2' } });
    expect(await waitForResult(second, 5_000)).toMatchObject({ status: 'done', body: { version: 5 } });
    // Someone else's save in between is still a conflict.
    version = 9;
    const third = await enqueue({ kind: 'testSave', recordId: 7, part: 'case', baseVersion: 3, data: { caseRef: 'C3' } });
    expect(await waitForResult(third, 5_000)).toMatchObject({ status: 'conflict' });
    expect(server.calls.map((call) => (call.body as { baseVersion: number }).baseVersion)).toEqual([3, 4, 5]);
  });

  it('an edit addressed to a local record after its create went through lands on the server id’s draft', async () => {
    fakeServer({ 'POST /records/create': () => jsonResponse(201, { id: 42, status: 'incomplete' }) });
    stop = startSync(store);
    const localId = newLocalRecordId();
    const create = await enqueue({ kind: 'testCreate', localId, data: { name: 'Ada' } });
    expect(await waitForResult(create, 5_000)).toMatchObject({ status: 'done' });
    // A form still open on the local id flushes the last keystrokes.
    await writeDraft(1, partDraftKey(localId, 'case'), { caseRef: 'typed during the switch' });
    expect(await readDraftRow(1, partDraftKey(42, 'case'))).toMatchObject({ value: { caseRef: 'typed during the switch' } });
    expect(await readDraftRow(1, partDraftKey(localId, 'case'))).toBeUndefined();
  });
});
