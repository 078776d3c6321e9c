// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import './application-mutations';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import type { ReactNode } from 'react';
import { startSession, type AppStore } from '../../../session/session';
import { db, draftRowId, onStoredRowProblem } from '../../../offline/db';
import { useDraft } from '../../../offline/drafts';
import { stepDraftKey } from './application-ids';
import { resetOffline, signedInStore, testUser } from '../../../test/offline-test-support';

interface Values {
  name: string;
}

const parse = (stored: unknown): Values | null =>
  typeof stored === 'object' && stored !== null && typeof (stored as { name?: unknown }).name === 'string'
    ? { name: (stored as Values).name }
    : null;

const KEY = stepDraftKey(7, 'personal');

function wrapper(store: AppStore) {
  return ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
}

function renderDraft(store: AppStore, key: string | null = KEY) {
  return renderHook(() => useDraft<Values>(key, parse), { wrapper: wrapper(store) });
}

let store: AppStore;

beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
});

afterEach(() => {
  cleanup();
});

describe('useDraft', () => {
  it('names step drafts by application and step', () => {
    expect(stepDraftKey(7, 'case')).toBe('application:7:case');
    expect(stepDraftKey('local-abc', 'case')).toBe('application:local-abc:case');
  });

  it('is loaded with no draft when nothing is stored', async () => {
    const { result } = renderDraft(store);
    await waitFor(() => expect(result.current.loaded).toBe(true));
    expect(result.current.draft).toBeUndefined();
  });

  it('restores a saved draft after a reload (a new hook instance)', async () => {
    const first = renderDraft(store);
    await waitFor(() => expect(first.result.current.loaded).toBe(true));
    act(() => first.result.current.save({ name: 'Ada' }, { baseVersion: 3 }));
    await act(() => first.result.current.flush());
    first.unmount();

    const second = renderDraft(store);
    await waitFor(() => expect(second.result.current.draft?.value).toEqual({ name: 'Ada' }));
    expect(second.result.current.draft).toMatchObject({ key: KEY, userId: 1, baseVersion: 3, status: 'editing' });
  });

  it('writes once the page is idle after a keystroke; keystrokes before that go in one write, the latest wins', async () => {
    const { result } = renderDraft(store);
    await waitFor(() => expect(result.current.loaded).toBe(true));
    const put = vi.spyOn(db.drafts, 'put');
    act(() => {
      result.current.save({ name: 'A' });
      result.current.save({ name: 'Ad' });
      result.current.save({ name: 'Ada' });
    });
    expect(put).not.toHaveBeenCalled();
    await waitFor(async () => expect((await db.drafts.get(draftRowId(1, KEY)))?.value).toEqual({ name: 'Ada' }));
    expect(put).toHaveBeenCalledTimes(1);
  });

  it('keystrokes made while a write runs never wait: they go together in the next write', async () => {
    const { result } = renderDraft(store);
    await waitFor(() => expect(result.current.loaded).toBe(true));
    const put = vi.spyOn(db.drafts, 'put');
    put.mockClear();
    let written: Promise<void> = Promise.resolve();
    act(() => {
      result.current.save({ name: 'G' });
      // The write of 'G' starts now and is under way while the next keys are typed.
      written = result.current.flush();
      result.current.save({ name: 'Gr' });
      result.current.save({ name: 'Gra' });
      result.current.save({ name: 'Grace' });
    });
    await act(() => written);
    await act(() => result.current.flush());
    expect((await db.drafts.get(draftRowId(1, KEY)))?.value).toEqual({ name: 'Grace' });
    expect(put.mock.calls.map(([row]) => (row.value as Values).name)).toEqual(['G', 'Grace']);
  });

  it('flush writes at once (blur, step change)', async () => {
    const { result } = renderDraft(store);
    await waitFor(() => expect(result.current.loaded).toBe(true));
    act(() => result.current.save({ name: 'Grace' }));
    await act(() => result.current.flush());
    expect((await db.drafts.get(draftRowId(1, KEY)))?.value).toEqual({ name: 'Grace' });
  });

  it('writes a pending edit on pagehide and when the page is hidden', async () => {
    const { result } = renderDraft(store);
    await waitFor(() => expect(result.current.loaded).toBe(true));
    act(() => result.current.save({ name: 'Hidden' }));
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(async () => expect((await db.drafts.get(draftRowId(1, KEY)))?.value).toEqual({ name: 'Hidden' }));

    act(() => result.current.save({ name: 'Hidden again' }));
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
    await waitFor(async () => expect((await db.drafts.get(draftRowId(1, KEY)))?.value).toEqual({ name: 'Hidden again' }));
  });

  it('writes a pending edit when the screen is left (unmount)', async () => {
    const { result, unmount } = renderDraft(store);
    await waitFor(() => expect(result.current.loaded).toBe(true));
    act(() => result.current.save({ name: 'Left' }));
    unmount();
    await waitFor(async () => expect((await db.drafts.get(draftRowId(1, KEY)))?.value).toEqual({ name: 'Left' }));
  });

  it('clear removes the draft', async () => {
    const { result } = renderDraft(store);
    await waitFor(() => expect(result.current.loaded).toBe(true));
    act(() => result.current.save({ name: 'Gone' }));
    await act(() => result.current.flush());
    await act(() => result.current.clear());
    await waitFor(() => expect(result.current.draft).toBeUndefined());
    expect(await db.drafts.count()).toBe(0);
  });

  it('shows drafts of the signed-in user only', async () => {
    const mine = renderDraft(store);
    await waitFor(() => expect(mine.result.current.loaded).toBe(true));
    act(() => mine.result.current.save({ name: 'Private' }));
    await act(() => mine.result.current.flush());
    mine.unmount();

    startSession(store, 'token-2', testUser(2));
    const theirs = renderDraft(store);
    await waitFor(() => expect(theirs.result.current.loaded).toBe(true));
    expect(theirs.result.current.draft).toBeUndefined();
    act(() => theirs.result.current.save({ name: 'Second user' }));
    await act(() => theirs.result.current.flush());
    theirs.unmount();

    startSession(store, 'token-3', testUser(1));
    const again = renderDraft(store);
    await waitFor(() => expect(again.result.current.draft?.value).toEqual({ name: 'Private' }));
    expect(await db.drafts.count()).toBe(2);
  });

  it('does nothing without a key', async () => {
    const { result } = renderDraft(store, null);
    expect(result.current.loaded).toBe(true);
    act(() => result.current.save({ name: 'x' }));
    await act(() => result.current.flush());
    expect(await db.drafts.count()).toBe(0);
  });

  it('migrates a row an older version wrote (fields added later get their defaults)', async () => {
    await db.drafts.put({ id: draftRowId(1, KEY), userId: 1, key: KEY, value: { name: 'Old' } } as never);
    const { result } = renderDraft(store);
    await waitFor(() => expect(result.current.draft?.value).toEqual({ name: 'Old' }));
    expect(result.current.draft).toMatchObject({ baseVersion: 0, status: 'editing', updatedAt: 0 });
  });

  it('reports a row it cannot use, keeps it, and does not crash', async () => {
    const problems: string[] = [];
    const stop = onStoredRowProblem((problem) => problems.push(`${problem.table}:${problem.rowId}`));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await db.drafts.put({ id: draftRowId(1, KEY), userId: 1, key: KEY, value: 42 } as never);
    const otherKey = stepDraftKey(7, 'case');
    await db.drafts.put({ id: draftRowId(1, otherKey), userId: 'one', key: otherKey, status: 'lost' } as never);

    const unusable = renderDraft(store);
    await waitFor(() => expect(unusable.result.current.loaded).toBe(true));
    expect(unusable.result.current.draft).toBeUndefined();
    const broken = renderDraft(store, otherKey);
    await waitFor(() => expect(broken.result.current.loaded).toBe(true));
    expect(broken.result.current.draft).toBeUndefined();

    expect(problems).toEqual([`drafts:${draftRowId(1, KEY)}`, `drafts:${draftRowId(1, otherKey)}`]);
    expect(await db.drafts.count()).toBe(2);
    stop();
  });

  it('asks for persistent storage on the first draft', async () => {
    const persist = vi.fn(async () => true);
    Object.defineProperty(navigator, 'storage', {
      configurable: true,
      value: { persist, persisted: async () => false },
    });
    const { result } = renderDraft(store);
    await waitFor(() => expect(result.current.loaded).toBe(true));
    act(() => result.current.save({ name: 'First' }));
    await act(() => result.current.flush());
    act(() => result.current.save({ name: 'Second' }));
    await act(() => result.current.flush());
    await waitFor(() => expect(persist).toHaveBeenCalledTimes(1));
  });
});
