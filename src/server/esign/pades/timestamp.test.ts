import { describe, expect, it } from 'vitest';
import { freshNonce } from './timestamp';

describe('freshNonce', () => {
  it('is always a positive INTEGER in its one DER encoding: first byte 1 to 0x7f, never padding', () => {
    const firstBytes = new Set<number>();
    for (let i = 0; i < 20_000; i += 1) {
      const nonce = freshNonce();
      expect(nonce).toHaveLength(8);
      firstBytes.add(nonce[0]!);
    }
    expect(Math.min(...firstBytes)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...firstBytes)).toBeLessThanOrEqual(0x7f);
    // Still random: every allowed first byte came up.
    expect(firstBytes.size).toBe(0x7f);
  });
});
