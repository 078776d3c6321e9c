// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as v from 'valibot';
import type { AppStore } from '../session/session';
import { db } from './db';
import { registerMutation } from './mutation-registry';
import { enqueue, waitForResult } from './outbox';
import { classify } from './send-outcome';
import { startSync, syncNow } from './sync-engine';
import { fakeServer, jsonResponse, resetOffline, signedInStore } from '../test/offline-test-support';

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
