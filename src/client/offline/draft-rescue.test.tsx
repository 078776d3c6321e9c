// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import type { ReactNode } from 'react';
import type { AppStore } from '../session/session';
import { resetOffline, signedInStore } from '../test/offline-test-support';
import { db, draftRowId } from './db';
import { keepUnwrittenEdits, takeBackKeptEdits, type RescuedEdit } from './draft-rescue';
import { readDraftRow, restoreRescuedDrafts, useDraft, writeDraft } from './drafts';

// The last edits of a page that goes away are kept synchronously, and folded back into their drafts.

type Values = Record<string, string>;
const KEY = 'test-form:1';
const USER = 1;
const parse = (stored: unknown): Values | null => (stored && typeof stored === 'object' ? (stored as Values) : null);

let store: AppStore;
beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
});
afterEach(() => cleanup());

const keptEntries = () =>
  Object.keys(localStorage)
    .filter((name) => name.startsWith('portal:rescued-edit:'))
    .map((name) => JSON.parse(localStorage.getItem(name) ?? 'null') as RescuedEdit);

/** What a page that went away left behind, as keepUnwrittenEdits writes it. */
function keptByAPageGone(edit: Omit<RescuedEdit, 'userId' | 'key'>, name = 'portal:rescued-edit:gone-tab:0') {
  localStorage.setItem(name, JSON.stringify({ userId: USER, key: KEY, ...edit }));
}

describe('keeping the edits not yet written', () => {
  it('keeps an edit typed before its frame, with its base, and takes it back when the page is shown again', async () => {
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
    const { result } = renderHook(() => useDraft<Values>(KEY, parse), { wrapper });
    await waitFor(() => expect(result.current.loaded).toBe(true));
    act(() => result.current.rebase({ name: '' }));

    act(() => result.current.save({ name: 'Ada' }, { baseVersion: 2 }));
    keepUnwrittenEdits(1_000);
    expect(keptEntries()).toEqual([
      { userId: USER, key: KEY, value: { name: 'Ada' }, baseVersion: 2, base: { name: '' }, at: 1_000 },
    ]);

    takeBackKeptEdits();
    expect(keptEntries()).toEqual([]);
  });

  it('keeps nothing once the edit is written', async () => {
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
    const { result } = renderHook(() => useDraft<Values>(KEY, parse), { wrapper });
    await waitFor(() => expect(result.current.loaded).toBe(true));
    act(() => result.current.save({ name: 'Ada' }));
    await act(() => result.current.flush());

    keepUnwrittenEdits();
    expect(keptEntries()).toEqual([]);
    expect((await readDraftRow(USER, KEY))?.value).toEqual({ name: 'Ada' });
  });
});

describe('folding kept edits back into their drafts', () => {
  it('writes an edit whose write never landed, and removes what it read', async () => {
    keptByAPageGone({ value: { name: 'Ada', city: 'Leeds' }, baseVersion: 3, at: Date.now() });
    await restoreRescuedDrafts();

    const row = await readDraftRow(USER, KEY);
    expect(row).toMatchObject({ value: { name: 'Ada', city: 'Leeds' }, baseVersion: 3, status: 'editing' });
    expect(keptEntries()).toEqual([]);
  });

  it('merges into an older draft field by field, the edit winning where it changed', async () => {
    await writeDraft(USER, KEY, { name: 'Ad', city: 'York' });
    keptByAPageGone({ value: { name: 'Ada', city: '' }, base: { name: 'Ad', city: '' }, at: Date.now() + 1_000 });
    await restoreRescuedDrafts();

    // The page changed the name; the city another tab typed stays.
    expect((await readDraftRow(USER, KEY))?.value).toEqual({ name: 'Ada', city: 'York' });
  });

  it('lets a draft written after the page went away win where it changed, the edit filling in the rest', async () => {
    keptByAPageGone({ value: { name: 'Ada', city: 'Leeds' }, base: { name: '', city: '' }, at: Date.now() - 60_000 });
    await writeDraft(USER, KEY, { name: 'Grace', city: '' });
    await restoreRescuedDrafts();

    expect((await readDraftRow(USER, KEY))?.value).toEqual({ name: 'Grace', city: 'Leeds' });
  });

  it('writes nothing when the draft already holds the edit, so a save queued since stays queued', async () => {
    await writeDraft(USER, KEY, { name: 'Ada' });
    await db.drafts.update(draftRowId(USER, KEY), { status: 'queued' });
    keptByAPageGone({ value: { name: 'Ada' }, base: { name: '' }, at: Date.now() - 1 });
    await restoreRescuedDrafts();

    expect(await readDraftRow(USER, KEY)).toMatchObject({ value: { name: 'Ada' }, status: 'queued' });
    expect(keptEntries()).toEqual([]);
  });

  it('removes an entry it cannot read, and writes nothing for it', async () => {
    localStorage.setItem('portal:rescued-edit:gone-tab:0', '{"userId":"one"');
    localStorage.setItem('portal:rescued-edit:gone-tab:1', JSON.stringify({ userId: USER, key: KEY }));
    await restoreRescuedDrafts();

    expect(keptEntries()).toEqual([]);
    expect(await readDraftRow(USER, KEY)).toBeUndefined();
  });
});

describe('a page that starts with kept edits', () => {
  it('shows a draft only once the edits are folded in', async () => {
    keptByAPageGone({ value: { name: 'Ada' }, base: { name: '' }, at: Date.now() });
    // A new page: the drafts' module is loaded afresh, and finds the kept edit as it loads.
    vi.resetModules();
    const support = await import('../test/offline-test-support');
    const fresh = await import('./drafts');
    const freshStore = support.signedInStore();
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={freshStore}>{children}</Provider>;
    const seen: (Values | undefined)[] = [];
    const { result } = renderHook(
      () => {
        const draft = fresh.useDraft<Values>(KEY, parse);
        if (draft.loaded) seen.push(draft.draft?.value);
        return draft;
      },
      { wrapper },
    );

    await waitFor(() => expect(result.current.loaded).toBe(true));
    // A form reads its draft once, when it is loaded: it must never be loaded without the edit.
    expect(seen[0]).toEqual({ name: 'Ada' });
    expect(seen.every((value) => value?.name === 'Ada')).toBe(true);
  });
});
