// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { clearAllTables, db } from './db';
import { useDeviceQuery } from './device-query';

const loadStore = () => import('./db');
const noRows: readonly string[] = [];
const readKeys = async (store: typeof import('./db')) => (await store.db.meta.toArray()).map((row) => row.id).sort();

afterEach(async () => {
  cleanup();
  await clearAllTables();
});

describe('useDeviceQuery: a live read of the device whose code loads after the screen mounts', () => {
  it('gives the fallback first, then follows the store as it changes', async () => {
    const { result } = renderHook(() => useDeviceQuery(loadStore, readKeys, [], noRows));
    expect(result.current).toBe(noRows);
    await act(async () => {
      await db.meta.put({ id: 'a', value: 1 } as never);
    });
    await waitFor(() => expect(result.current).toEqual(['a']));
    await act(async () => {
      await db.meta.put({ id: 'b', value: 1 } as never);
    });
    await waitFor(() => expect(result.current).toEqual(['a', 'b']));
  });

  it('renders nothing more for an answer the same as the one shown (an empty store keeps the fallback)', async () => {
    let renders = 0;
    let reads = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return useDeviceQuery(
        loadStore,
        async (store) => {
          reads += 1;
          return (await readKeys(store)).filter((key) => key.startsWith('z'));
        },
        [],
        noRows,
      );
    });
    await waitFor(() => expect(reads).toBeGreaterThan(0));
    // A write to the table read wakes the read; its answer is the same empty list.
    const before = reads;
    await act(async () => {
      await db.meta.put({ id: 'a', value: 1 } as never);
    });
    await waitFor(() => expect(reads).toBeGreaterThan(before));
    expect(result.current).toBe(noRows);
    expect(renders).toBe(1);
  });
});
