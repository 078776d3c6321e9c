// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as v from 'valibot';
import { sessionAtom, startSession, type AppStore } from '../session/session';
import { db } from './db';
import { registerMutation, type SendContext } from './mutation-registry';
import { enqueue, waitForResult } from './outbox';
import { outcomeOf } from './send-outcome';
import { startSync, syncNow } from './sync-engine';
import { batchCallsMade, setBatchTimingForTests } from './sync-batch';
import { PARALLEL_SCOPES } from './sync-send';
import { fakeServer, jsonResponse, resetOffline, signedInStore, testUser, type SentCall } from '../test/offline-test-support';

// The sync's calls sent together (decision 702): a test write kind sent through the sync's client,
// and a fake POST /batch that runs each item through the fake server's own routes, as the real one
// does, stopping after a 401 or a 5xx.

declare module './mutation-registry' {
  interface MutationKinds {
    batchTestSave: { record: string; n: number };
  }
}

type AnyPost = (
  path: string,
  init: { body: unknown; headers: Record<string, string> },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

registerMutation({
  kind: 'batchTestSave',
  payload: v.object({ record: v.string(), n: v.number() }),
  scope: ({ record }) => `batch-test:${record}`,
  batched: true,
  send: async ({ record, n }, ctx: SendContext) =>
    outcomeOf(
      await (ctx.api.POST as unknown as AnyPost)(`/records/${record}/save`, {
        body: { n },
        headers: { 'Idempotency-Key': ctx.idempotencyKey },
      }),
    ),
});

interface Item {
  path: string;
  idempotencyKey: string;
  body: unknown;
}

/** Every item the fake server ran, alone or in a batch, in the order run. */
let ran: { record: string; n: number; key: string | null; batched: boolean }[] = [];

function saveRoute(answer: (record: string, n: number) => Response | undefined = () => undefined) {
  return (call: SentCall) => {
    const record = call.path.split('/')[2]!;
    const { n } = call.body as { n: number };
    ran.push({ record, n, key: call.idempotencyKey, batched: call.method === 'BATCHED' });
    return answer(record, n) ?? jsonResponse(200, { record, n });
  };
}

function server(options: { batch?: boolean; answer?: (record: string, n: number) => Response | undefined } = {}) {
  const save = saveRoute(options.answer);
  const routes: Record<string, (call: SentCall) => Response | Promise<Response>> = {};
  for (const record of ['a', 'b', 'c', 'd', 'e', 'f']) routes[`POST /records/${record}/save`] = save;
  if (options.batch !== false)
    routes['POST /batch'] = async (call) => {
      const answers: { status: number; headers: Record<string, string>; body?: unknown }[] = [];
      for (const item of (call.body as { requests: Item[] }).requests) {
        const response = await routes[`POST ${item.path}`]!({
          method: 'BATCHED',
          path: item.path,
          body: item.body,
          idempotencyKey: item.idempotencyKey,
          authorization: call.authorization,
        });
        const text = await response.text();
        const retryAfter = response.headers.get('Retry-After');
        answers.push({
          status: response.status,
          headers: retryAfter ? { 'retry-after': retryAfter } : {},
          ...(text ? { body: JSON.parse(text) as unknown } : {}),
        });
        if (response.status === 401 || response.status >= 500) break;
      }
      return jsonResponse(200, { answers });
    };
  return fakeServer(routes);
}

let store: AppStore;
let stop: (() => void) | undefined;

beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
  ran = [];
  // The sends of a pass start a few milliseconds apart here (fake IndexedDB): they still go together.
  setBatchTimingForTests({ quietMs: 40, gatherMs: 200 });
});

afterEach(() => {
  stop?.();
  stop = undefined;
  vi.unstubAllGlobals();
});

/** Queues n saves in each record, offline, and returns their ids by `record:n`. */
async function queueSaves(records: string[], perRecord: number): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (let n = 1; n <= perRecord; n++)
    for (const record of records) ids.set(`${record}:${n}`, await enqueue({ kind: 'batchTestSave', record, n }));
  return ids;
}

describe('the sync’s calls sent together (decision 702)', () => {
  it('the writes of the scopes under way go in batch calls: each once, in order within its scope', async () => {
    const fake = server();
    fake.offline = true;
    stop = startSync(store);
    const ids = await queueSaves(['a', 'b', 'c', 'd'], 3);
    fake.offline = false;
    await syncNow();
    for (const [name, id] of ids) expect(await waitForResult(id, 100), name).toMatchObject({ status: 'done' });
    expect(await db.outbox.count()).toBe(0);
    // Each write ran once, under its own key, and each record's in the order queued.
    expect(ran.map((item) => item.key).sort()).toEqual([...ids.values()].sort());
    for (const record of ['a', 'b', 'c', 'd'])
      expect(ran.filter((item) => item.record === record).map((item) => item.n)).toEqual([1, 2, 3]);
    expect(ran.some((item) => item.batched)).toBe(true);
    expect(fake.calls.length).toBeLessThan(ids.size);
    expect(batchCallsMade()).toBeGreaterThan(0);
    expect(fake.calls.filter((call) => call.path === '/batch').every((call) => call.authorization === 'Bearer token-1')).toBe(
      true,
    );
  });

  it('more scopes than PARALLEL_SCOPES go side by side when their writes go together', async () => {
    const fake = server();
    fake.offline = true;
    stop = startSync(store);
    const records = ['a', 'b', 'c', 'd', 'e', 'f'];
    const ids = await queueSaves(records, 1);
    fake.offline = false;
    await syncNow();
    for (const [name, id] of ids) expect(await waitForResult(id, 100), name).toMatchObject({ status: 'done' });
    const sizes = fake.calls.map((call) => (call.path === '/batch' ? (call.body as { requests: Item[] }).requests.length : 1));
    expect(Math.max(...sizes)).toBeGreaterThan(PARALLEL_SCOPES);
    expect(ran.map((item) => item.record).sort()).toEqual(records);
  });

  it('a lone write goes alone', async () => {
    const fake = server();
    stop = startSync(store);
    const [id] = [...(await queueSaves(['a'], 1)).values()];
    expect(await waitForResult(id!, 5_000)).toMatchObject({ status: 'done', body: { record: 'a', n: 1 } });
    expect(fake.calls.map((call) => call.path)).toEqual(['/records/a/save']);
  });

  it('a server that does not know POST /batch gets single calls, each write once, and no batch again', async () => {
    const fake = server({ batch: false });
    fake.offline = true;
    stop = startSync(store);
    const ids = await queueSaves(['a', 'b', 'c'], 2);
    fake.offline = false;
    await syncNow();
    for (const [name, id] of ids) expect(await waitForResult(id, 100), name).toMatchObject({ status: 'done' });
    expect(ran.map((item) => item.key).sort()).toEqual([...ids.values()].sort());
    expect(ran.every((item) => !item.batched)).toBe(true);
    expect(fake.calls.filter((call) => call.path === '/batch')).toHaveLength(1);
  });

  it('an item over a limit (429) waits as it would alone; the others of its batch are written', async () => {
    const fake = server({
      answer: (record) =>
        record === 'b'
          ? new Response(JSON.stringify({ error: 'tooManyAttempts' }), {
              status: 429,
              headers: { 'Content-Type': 'application/json', 'Retry-After': '60' },
            })
          : undefined,
    });
    fake.offline = true;
    stop = startSync(store);
    const ids = await queueSaves(['a', 'b', 'c'], 1);
    fake.offline = false;
    const before = Date.now();
    await syncNow();
    expect(await waitForResult(ids.get('a:1')!, 100)).toMatchObject({ status: 'done' });
    expect(await waitForResult(ids.get('c:1')!, 100)).toMatchObject({ status: 'done' });
    const [held] = await db.outbox.toArray();
    expect(held?.id).toBe(ids.get('b:1'));
    expect(held?.heldUntil).toBeGreaterThanOrEqual(before + 59_000);
    // The three went in one batch (a pass run again meanwhile may send 'b' again, as it would alone).
    expect(ran.slice(0, 3).map((item) => [item.record, item.batched])).toEqual([
      ['a', true],
      ['b', true],
      ['c', true],
    ]);
  });

  it('after an item answered 401 the server runs no more: the queue pauses until the user signs in again', async () => {
    let authorized = false;
    const fake = server({
      answer: (record) => (!authorized && record === 'b' ? jsonResponse(401, { error: 'unauthorized' }) : undefined),
    });
    fake.offline = true;
    stop = startSync(store);
    const ids = await queueSaves(['a', 'b', 'c'], 1);
    fake.offline = false;
    await syncNow();
    // 'a' ran before the 401; 'c', after it in the batch, was not run (and is not lost).
    expect(await waitForResult(ids.get('a:1')!, 100)).toMatchObject({ status: 'done' });
    expect(store.get(sessionAtom).status).toBe('signedOut');
    expect((await db.outbox.toArray()).map((row) => row.id).sort()).toEqual([ids.get('b:1'), ids.get('c:1')].sort());
    expect(ran.map((item) => item.record)).toEqual(['a', 'b']);

    authorized = true;
    startSession(store, 'token-2', testUser());
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(ran.filter((item) => item.record === 'b').map((item) => item.key)).toEqual([ids.get('b:1'), ids.get('b:1')]);
    expect(ran.filter((item) => item.record === 'c')).toHaveLength(1);
  });

  it('after an item the server could not answer (5xx) the rest is kept and sent again under the same keys', async () => {
    let failing = true;
    const fake = server({
      answer: (record) => (failing && record === 'a' ? jsonResponse(500, { error: 'unhandled' }) : undefined),
    });
    fake.offline = true;
    stop = startSync(store);
    const ids = await queueSaves(['a', 'b', 'c'], 1);
    fake.offline = false;
    await syncNow();
    // Each pass ran 'a' and stopped there; 'b' and 'c' were not run, and are kept.
    expect(await db.outbox.count()).toBe(3);
    expect(new Set(ran.map((item) => item.record))).toEqual(new Set(['a']));
    expect(ran.every((item) => item.batched)).toBe(true);
    failing = false;
    await syncNow();
    for (const [name, id] of ids) expect(await waitForResult(id, 100), name).toMatchObject({ status: 'done' });
    expect(new Set(ran.filter((item) => item.record === 'a').map((item) => item.key))).toEqual(new Set([ids.get('a:1')]));
    expect(ran.filter((item) => item.record !== 'a')).toHaveLength(2);
  });

  it('a batch call with no answer keeps every write of it, as a single call would', async () => {
    const fake = server();
    fake.offline = true;
    stop = startSync(store);
    await queueSaves(['a', 'b'], 1);
    await syncNow();
    expect(await db.outbox.count()).toBe(2);
    expect(ran).toEqual([]);
    fake.offline = false;
    await syncNow();
    expect(await db.outbox.count()).toBe(0);
  });
});
