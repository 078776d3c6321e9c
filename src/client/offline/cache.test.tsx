// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import type { ReactNode } from 'react';
import { startSession, type AppStore } from '../session/session';
import { ApiResponseError, readFailure } from '../api/failure';
import { reportAnswered, reportUnanswered } from '../api/connection';
import { REFRESH_DURING_SYNC_MS, setReadTimeoutForTests, shouldReadAgain, useCachedQuery } from './cache';
import { FOLLOW_INTERVAL_MS } from './read-again';
import { db } from './db';
import { signOut } from '../session/session';
import { startSync, syncNow } from './sync-engine';
import { fakeServer, jsonResponse, resetOffline, signedInStore, testUser } from '../test/offline-test-support';
import * as v from 'valibot';
import { registerMutation } from './mutation-registry';
import { enqueue } from './outbox';
import { classify } from './send-outcome';

// Writes of this test's own: the server takes the first (POST /records) and may refuse the second.
declare module './mutation-registry' {
  interface MutationKinds {
    cacheTestWrite: { name: string };
    cacheTestRefusedWrite: { name: string };
    cacheTestSlowWrite: { name: string };
  }
}
registerMutation({
  kind: 'cacheTestWrite',
  payload: v.object({ name: v.string() }),
  scope: () => null,
  send: async () => classify((await fetch(`${location.origin}/api/records`, { method: 'POST', body: '{}' })).status, {}),
});
registerMutation({
  kind: 'cacheTestRefusedWrite',
  payload: v.object({ name: v.string() }),
  scope: () => null,
  send: async () => {
    const answer = await fetch(`${location.origin}/api/records/spend`, { method: 'POST', body: '{}' });
    return classify(answer.status, (await answer.json()) as unknown);
  },
});

// One record's writes (one scope, so one after another), each answered after a while.
registerMutation({
  kind: 'cacheTestSlowWrite',
  payload: v.object({ name: v.string() }),
  scope: () => 'cache-test-record',
  send: async () => classify((await fetch(`${location.origin}/api/records/slow`, { method: 'POST', body: '{}' })).status, {}),
});

let store: AppStore;

beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
});

afterEach(() => cleanup());

function sameItems(data: unknown, items: number[]): boolean {
  return JSON.stringify(data) === JSON.stringify({ items });
}

function renderQuery(fetcher: () => Promise<unknown>, key = 'records?page=1') {
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  return renderHook(() => useCachedQuery(key, fetcher), { wrapper });
}

describe('useCachedQuery', () => {
  it('fetches from the network first, and offline shows the saved copy with its time', async () => {
    const online = renderQuery(async () => ({ items: [1, 2] }));
    await waitFor(() => expect(online.result.current.data).toEqual({ items: [1, 2] }));
    expect(online.result.current.fromCache).toBe(false);
    const savedAt = online.result.current.savedAt;
    online.unmount();

    const offline = renderQuery(async () => {
      throw new TypeError('Failed to fetch');
    });
    await waitFor(() => expect(offline.result.current.loading).toBe(false));
    expect(offline.result.current).toMatchObject({ data: { items: [1, 2] }, fromCache: true, savedAt });
    expect(offline.result.current.error).toBeInstanceOf(TypeError);
  });

  it('keeps each user’s copy apart', async () => {
    const online = renderQuery(async () => ({ mine: true }));
    await waitFor(() => expect(online.result.current.data).toEqual({ mine: true }));
    online.unmount();
    startSession(store, 'token-2', testUser(2));
    const other = renderQuery(async () => {
      throw new TypeError('Failed to fetch');
    });
    await waitFor(() => expect(other.result.current.loading).toBe(false));
    expect(other.result.current.data).toBeUndefined();
    expect(other.result.current.fromCache).toBe(false);
  });

  it('does not hide a server refusal behind the copy; reload fetches again', async () => {
    const online = renderQuery(async () => ({ id: 7 }), 'record:7');
    await waitFor(() => expect(online.result.current.data).toEqual({ id: 7 }));
    online.unmount();
    let answer: 'missing' | 'back' = 'missing';
    const view = renderQuery(async () => {
      if (answer === 'missing') throw new ApiResponseError(404, { error: 'notFound' });
      return { id: 7, again: true };
    }, 'record:7');
    await waitFor(() => expect(view.result.current.loading).toBe(false));
    expect(view.result.current.data).toBeUndefined();
    answer = 'back';
    act(() => view.result.current.reload());
    await waitFor(() => expect(view.result.current.data).toEqual({ id: 7, again: true }));
  });
});

describe('after a sync that changed the server’s data (decision 340)', () => {
  it('a list showing its saved copy fetches again once the queued write reached the server', async () => {
    const server = fakeServer({ 'POST /records': () => jsonResponse(201, { id: 9 }) });
    server.offline = true;
    let records = [1];
    const view = renderQuery(async () => {
      const answer = await fetch(`${location.origin}/api/records-list`);
      if (!answer.ok) throw new ApiResponseError(answer.status, {});
      return { items: [...records] };
    });
    await waitFor(() => expect(view.result.current.loading).toBe(false));
    expect(view.result.current.data).toBeUndefined();

    const stop = startSync(store);
    await act(() => enqueue({ kind: 'cacheTestWrite', name: 'new' }));
    server.routes['GET /records-list'] = () => jsonResponse(200, {});
    records = [1, 9];
    server.offline = false;
    // Back online: the queued write goes, and the list asks the server again.
    act(() => void globalThis.dispatchEvent(new Event('online')));
    await waitFor(() => expect(view.result.current.data).toEqual({ items: [1, 9] }));
    expect(view.result.current.fromCache).toBe(false);

    // Another write taken later (from any tab: the count is on the device) refreshes it again.
    records = [1, 9, 10];
    await act(() => enqueue({ kind: 'cacheTestWrite', name: 'another' }));
    await waitFor(() => expect(view.result.current.data).toEqual({ items: [1, 9, 10] }));
    stop();
  });
});

describe('during a sync, read again once at its end (docs/decisions.md (605))', () => {
  it('a list reads again once after a sync of several answers, not at each pause between them', async () => {
    // Each answer takes longer than the pause after which answers settling together read again.
    const server = fakeServer({
      'POST /records/slow': async () => {
        await new Promise((resolve) => setTimeout(resolve, 350));
        return jsonResponse(201, { id: 9 });
      },
      'GET /records-list': () => jsonResponse(200, {}),
    });
    let reads = 0;
    const view = renderQuery(async () => {
      reads += 1;
      const answer = await fetch(`${location.origin}/api/records-list`);
      if (!answer.ok) throw new ApiResponseError(answer.status, {});
      return { items: [reads] };
    });
    await waitFor(() => expect(view.result.current.data).toEqual({ items: [1] }));
    for (const name of ['a', 'b', 'c']) await enqueue({ kind: 'cacheTestSlowWrite', name });
    const stop = startSync(store);
    await act(() => syncNow());
    expect(server.calls.filter((call) => call.path === '/records/slow')).toHaveLength(3);
    // The sync is over: the list reads again, once.
    await waitFor(() => expect(reads).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(reads).toBe(2);
    expect(view.result.current.data).toEqual({ items: [2] });
    stop();
  });

  it('reads again when the count grew and the sync is not under way, or an answer has waited REFRESH_DURING_SYNC_MS', () => {
    const followed = (count: number | undefined, waitingSince: number | null = null) => ({ count, waitingSince });
    // Nothing followed yet (the first reading), or no new answer: nothing to read.
    expect(shouldReadAgain({ count: 3, syncing: false }, followed(undefined), 0)).toBe(false);
    expect(shouldReadAgain({ count: 3, syncing: false }, followed(3), 0)).toBe(false);
    // A new answer outside a sync (its end, or a lone answer).
    expect(shouldReadAgain({ count: 4, syncing: false }, followed(3, 100), 100)).toBe(true);
    // During a sync: only once an answer has waited long enough.
    expect(shouldReadAgain({ count: 4, syncing: true }, followed(3, 100), 100 + REFRESH_DURING_SYNC_MS - 1)).toBe(false);
    expect(shouldReadAgain({ count: 9, syncing: true }, followed(3, 100), 100 + REFRESH_DURING_SYNC_MS)).toBe(true);
  });
});

describe('reading again (decisions 400 and 402)', () => {
  it('a read again that fails keeps what the screen shows, as the device’s copy with the time it was read', async () => {
    let answer: 'ok' | 'none' = 'ok';
    const view = renderQuery(async () => {
      if (answer === 'none') throw new TypeError('Failed to fetch');
      return { items: [1, 2] };
    });
    await waitFor(() => expect(view.result.current.data).toEqual({ items: [1, 2] }));
    const shown = view.result.current.data;
    const savedAt = view.result.current.savedAt;
    answer = 'none';
    act(() => view.result.current.reload());
    await waitFor(() => expect(view.result.current.fromCache).toBe(true));
    expect(view.result.current.data).toBe(shown);
    expect(view.result.current.savedAt).toBe(savedAt);
    expect(readFailure(view.result.current.error).kind).toBe('offline');
  });

  it('the same answer read again keeps the same object, so nothing renders for it', async () => {
    let reads = 0;
    const view = renderQuery(async () => {
      reads += 1;
      return { items: [1, 2] };
    });
    await waitFor(() => expect(view.result.current.data).toEqual({ items: [1, 2] }));
    const shown = view.result.current.data;
    act(() => view.result.current.reload());
    await waitFor(() => expect(reads).toBe(2));
    await waitFor(() => expect(view.result.current.loading).toBe(false));
    expect(view.result.current.data).toBe(shown);
  });

  it('reads again when the device comes back online after requests went unanswered', async () => {
    let records = [1];
    const view = renderQuery(async () => ({ items: [...records] }));
    await waitFor(() => expect(view.result.current.data).toEqual({ items: [1] }));
    act(() => reportUnanswered());
    records = [1, 2];
    act(() => reportAnswered());
    await waitFor(() => expect(view.result.current.data).toEqual({ items: [1, 2] }));
  });

  it('follows other people’s changes: every FOLLOW_INTERVAL_MS while the page is visible, and when its window gets the focus', async () => {
    // Only the interval is faked: the store and the checks below run on real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let step = 'first read';
    const eventually = async (check: () => boolean) => {
      for (let waited = 0; !check(); waited += 20) {
        if (waited > 4000) throw new Error(`not read again (${step})`);
        await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
      }
    };
    try {
      let records = [1];
      let reads = 0;
      const view = renderQuery(async () => {
        reads += 1;
        return { items: [...records] };
      });
      await eventually(() => sameItems(view.result.current.data, [1]));
      records = [1, 2];
      step = 'interval';
      act(() => void vi.advanceTimersByTime(FOLLOW_INTERVAL_MS));
      await eventually(() => sameItems(view.result.current.data, [1, 2]));

      records = [1, 2, 3];
      step = 'focus';
      act(() => void window.dispatchEvent(new Event('focus')));
      await eventually(() => sameItems(view.result.current.data, [1, 2, 3]));

      // A hidden page reads nothing until it is seen again.
      const before = reads;
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      act(() => void vi.advanceTimersByTime(FOLLOW_INTERVAL_MS * 3));
      // (Longer than the gap that makes a focus and a visibility change one read.)
      await act(() => new Promise((resolve) => setTimeout(resolve, 1_100)));
      expect(reads).toBe(before);
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      step = 'visible again';
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
      await eventually(() => reads === before + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an answer that does not come in time: the copy is shown meanwhile as the portal not answering, then the answer', async () => {
    const online = renderQuery(async () => ({ items: [1] }));
    await waitFor(() => expect(online.result.current.data).toEqual({ items: [1] }));
    online.unmount();
    setReadTimeoutForTests(50);
    try {
      let answer: (value: { items: number[] }) => void = () => undefined;
      const slow = renderQuery(() => new Promise<{ items: number[] }>((resolve) => (answer = resolve)));
      await waitFor(() => expect(slow.result.current.fromCache).toBe(true));
      expect(slow.result.current.data).toEqual({ items: [1] });
      expect(readFailure(slow.result.current.error)).toMatchObject({ kind: 'offline', code: 'timeout' });
      act(() => answer({ items: [1, 2] }));
      await waitFor(() => expect(slow.result.current.data).toEqual({ items: [1, 2] }));
      expect(slow.result.current.fromCache).toBe(false);
    } finally {
      setReadTimeoutForTests(null);
    }
  });
});

describe('after a refused write (decision 403)', () => {
  it('the lists and records read again: the refusal means the server’s data moved on without this device', async () => {
    let credit = 100;
    fakeServer({ 'POST /records/spend': () => jsonResponse(400, { error: 'validation', fields: { amount: 'exceedsCredit' } }) });
    const view = renderQuery(async () => ({ credit }), 'loan:1');
    await waitFor(() => expect(view.result.current.data).toEqual({ credit: 100 }));
    const stop = startSync(store);
    // Another device used part of the credit meanwhile: the write is refused.
    credit = 40;
    await act(() => enqueue({ kind: 'cacheTestRefusedWrite', name: 'too much' }));
    await waitFor(() => expect(view.result.current.data).toEqual({ credit: 40 }));
    stop();
  });
});

describe('signing out', () => {
  it('removes every read the device kept for the user; drafts and unsent writes stay', async () => {
    fakeServer();
    const stop = startSync(store);
    const online = renderQuery(async () => ({ items: [1] }));
    await waitFor(() => expect(online.result.current.data).toEqual({ items: [1] }));
    online.unmount();
    await db.cache.put({ id: '1|record:7', userId: 1, key: 'record:7', data: { id: 7 }, savedAt: 1 });
    await db.cache.put({ id: '2|record:8', userId: 2, key: 'record:8', data: { id: 8 }, savedAt: 1 });
    await db.drafts.put({
      id: '1|form:7',
      userId: 1,
      key: 'form:7',
      value: { a: 1 },
      baseVersion: 0,
      updatedAt: 1,
      status: 'editing',
    });
    await db.outbox.add({ id: 'w1', userId: 1, kind: 'unsentWrite', payload: {}, createdAt: 1, attempts: 0 });
    expect(await db.cache.where('userId').equals(1).count()).toBe(2);

    await signOut(store);
    await waitFor(async () => expect(await db.cache.where('userId').equals(1).count()).toBe(0));
    expect(await db.cache.where('userId').equals(2).count()).toBe(1);
    expect(await db.drafts.count()).toBe(1);
    expect(await db.outbox.count()).toBe(1);

    const offline = renderQuery(async () => {
      throw new TypeError('Failed to fetch');
    });
    startSession(store, 'token-1', testUser(1));
    await waitFor(() => expect(offline.result.current.loading).toBe(false));
    expect(offline.result.current.data).toBeUndefined();
    stop();
  });
});
