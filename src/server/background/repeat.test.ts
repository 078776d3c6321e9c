import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { repeatInBackground } from './repeat';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('a job repeated in the background', () => {
  it('runs at once, then every interval, and never twice at a time', async () => {
    let finish: () => void = () => undefined;
    const run = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const stop = repeatInBackground({ name: 'job', everyMs: 1_000, run, log: vi.fn() });
    expect(run).toHaveBeenCalledTimes(1);
    // Still running when the next is due: that run is let pass.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    stop();
  });

  it('logs a failed run by the job’s name and runs again at the next interval', async () => {
    const log = vi.fn();
    const run = vi.fn().mockRejectedValueOnce(new Error('database gone')).mockResolvedValue(undefined);
    const stop = repeatInBackground({ name: 'mail sender', everyMs: 500, run, log });
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toHaveBeenCalledWith('mail sender failed', expect.objectContaining({ message: 'database gone' }));
    await vi.advanceTimersByTimeAsync(500);
    expect(run).toHaveBeenCalledTimes(2);
    stop();
  });

  it('starts no run once stopped, and tells a run under way that it is stopping', async () => {
    const seen: boolean[] = [];
    let finish: () => void = () => undefined;
    const run = vi.fn(async (stopped: () => boolean) => {
      seen.push(stopped());
      await new Promise<void>((resolve) => (finish = resolve));
      seen.push(stopped());
    });
    const stop = repeatInBackground({ name: 'job', everyMs: 100, run, log: vi.fn() });
    stop();
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([false, true]);
  });
});
