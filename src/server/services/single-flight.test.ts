import { describe, expect, it } from 'vitest';
import { singleFlight } from './single-flight';

describe('singleFlight', () => {
  it('runs once for the calls made while a run is under way, then again for a later call', async () => {
    const once = singleFlight<number>();
    let runs = 0;
    let finish!: (value: number) => void;
    const run = () => {
      runs++;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const calls = [once('a', run), once('a', run), once('a', run)];
    expect(runs).toBe(1);
    finish(7);
    expect(await Promise.all(calls)).toEqual([7, 7, 7]);
    const later = once('a', run);
    expect(runs).toBe(2);
    finish(8);
    expect(await later).toBe(8);
  });

  it('keeps keys apart and shares a failure with the calls that waited for it', async () => {
    const once = singleFlight<string>();
    let runs = 0;
    const failing = () => {
      runs++;
      return Promise.reject(new Error('sealing failed'));
    };
    const both = [once('a', failing), once('a', failing)];
    await expect(both[0]).rejects.toThrow('sealing failed');
    await expect(both[1]).rejects.toThrow('sealing failed');
    expect(runs).toBe(1);
    expect(await once('b', () => Promise.resolve('b'))).toBe('b');
  });
});
