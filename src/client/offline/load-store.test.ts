// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => vi.useRealTimers());

describe('loadStore and afterStore', () => {
  it('runs what works on the store only once the store has run and the main thread has had a turn', async () => {
    vi.resetModules();
    const { afterStore, loadStore } = await import('./load-store');
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const load = vi.fn(async () => 'engine');
    const loading = afterStore(load);
    await vi.dynamicImportSettled();
    // The store's code has run; the second step waits for the next task.
    expect(load).not.toHaveBeenCalled();
    await vi.runOnlyPendingTimersAsync();
    expect(await loading).toBe('engine');
    expect(load).toHaveBeenCalledOnce();

    // Loaded once, whoever asks.
    const [first, second] = await Promise.all([loadStore(), loadStore()]);
    expect(first).toBe(second);
    expect(typeof first.liveQuery).toBe('function');
    expect(first.db.name).toBe('portal');
  });
});
