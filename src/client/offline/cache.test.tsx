// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import type { ReactNode } from 'react';
import { startSession, type AppStore } from '../session/session';
import { ApiResponseError } from '../api/failure';
import { useCachedQuery } from './cache';
import { db } from './db';
import { signOut } from '../session/session';
import { startSync } from './sync-engine';
import { fakeServer, jsonResponse, resetOffline, signedInStore, testUser } from '../test/offline-test-support';
import * as v from 'valibot';
import { registerMutation } from './mutation-registry';
import { enqueue } from './outbox';
import { classify } from './send-outcome';

// A write of this test's own: the server takes it (POST /records).
declare module './mutation-registry' {
  interface MutationKinds {
    cacheTestWrite: { name: string };
  }
}
registerMutation({
  kind: 'cacheTestWrite',
  payload: v.object({ name: v.string() }),
  scope: () => null,
  send: async () => classify((await fetch(`${location.origin}/api/records`, { method: 'POST', body: '{}' })).status, {}),
});

let store: AppStore;

beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
});

afterEach(() => cleanup());

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
