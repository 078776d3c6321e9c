import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache';
import type { FoundSession } from './sessions';

function found(userId: number, sessionId = userId * 10): FoundSession {
  return {
    sessionId,
    lastSeenAt: new Date(0),
    user: {
      id: userId,
      firmId: null,
      lawyerId: null,
      customerId: null,
      role: 'customer',
      permissions: [],
      email: `u${userId}@x.test`,
      name: 'U',
      surname: 'S',
      sessionId,
    },
  };
}

function listeningCache(limits = { entries: 3, maxAgeMs: 1_000 }) {
  let now = 0;
  const cache = new SessionCache(limits, () => now);
  cache.setListening(true);
  return { cache, advance: (ms: number) => void (now += ms) };
}

describe('SessionCache', () => {
  it('keeps nothing and answers nothing while not listening, and empties when the listener goes', () => {
    const cache = new SessionCache({ entries: 3, maxAgeMs: 1_000 });
    cache.store('a', found(1), cache.generation);
    expect(cache.get('a')).toBeUndefined();
    cache.setListening(true);
    cache.store('a', found(1), cache.generation);
    expect(cache.get('a')?.sessionId).toBe(10);
    cache.setListening(false);
    expect(cache.size).toBe(0);
    cache.setListening(true);
    expect(cache.get('a')).toBeUndefined();
  });

  it('forgets every session of the account a notification names, or all on "*"', () => {
    const { cache } = listeningCache();
    cache.store('a', found(1, 1), cache.generation);
    cache.store('b', found(1, 2), cache.generation);
    cache.store('c', found(2), cache.generation);
    cache.notified('1');
    expect([cache.get('a'), cache.get('b'), cache.get('c')?.sessionId]).toEqual([undefined, undefined, 20]);
    cache.notified('*');
    expect(cache.get('c')).toBeUndefined();
  });

  it('does not keep a lookup begun before a notification (it may have read the old row)', () => {
    const { cache } = listeningCache();
    const generation = cache.generation;
    cache.notified('7');
    cache.store('a', found(1), generation);
    expect(cache.get('a')).toBeUndefined();
    const lost = cache.generation;
    cache.setListening(false);
    cache.setListening(true);
    cache.store('a', found(1), lost);
    expect(cache.get('a')).toBeUndefined();
  });

  it('is bounded: the least recently used goes first, and nothing is kept past the age limit', () => {
    const { cache, advance } = listeningCache();
    for (const [hash, user] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      cache.store(hash, found(user), cache.generation);
    expect(cache.get('a')).toBeDefined();
    cache.store('d', found(4), cache.generation);
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    advance(1_001);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('a notification for a number that is not an account id forgets everything', () => {
    const { cache } = listeningCache();
    cache.store('a', found(1), cache.generation);
    cache.notified('not a number');
    expect(cache.size).toBe(0);
  });
});
