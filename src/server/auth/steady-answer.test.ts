import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { answerNoSoonerThan } from './steady-answer';

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work().catch(() => undefined);
  return performance.now() - started;
}

describe('answerNoSoonerThan', () => {
  it('answers quick and slower work, and failures, at the same time', async () => {
    const quick = await timed(() => answerNoSoonerThan(100, async () => 'done'));
    const slower = await timed(() => answerNoSoonerThan(100, () => sleep(40)));
    const failed = await timed(() => answerNoSoonerThan(100, async () => Promise.reject(new Error('no'))));
    for (const took of [quick, slower, failed]) {
      expect(took).toBeGreaterThanOrEqual(100);
      // Generous: a loaded machine may answer late, but never as early as the work alone.
      expect(took).toBeLessThan(400);
    }
  });

  it('gives the work its result or its error', async () => {
    await expect(answerNoSoonerThan(1, async () => 42)).resolves.toBe(42);
    await expect(answerNoSoonerThan(1, async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });
});
