import type { Database } from '../db/connection';
import { listenForNotifications, type NotificationListener } from '../db/notifications';
import { SESSION_IDLE_TIMEOUT_MS } from '../../shared/rules/limits';
import { findSession, touchSession, TOUCH_EVERY_MS, type Authenticated, type FoundSession } from './sessions';
import { hashToken } from './tokens';

/**
 * Authenticated sessions kept in memory, so most requests send no statement to authenticate
 * (docs/decisions.md 610-612). Keyed by the token's hash; bounded in entries (the least recently
 * used go first) and in age. The triggers of migration 0015 say on channel 'session_cache' which
 * account changed (a session revoked, the account changed, a lawyer or client row moved); every
 * server forgets that account's sessions. While the listening connection is down nothing is read
 * from here (and it was emptied); a request whose session is found here first waits for the
 * listener to have received every notification committed before the request began, so a session
 * revoked before a request starts is refused by every server.
 */
export interface SessionAuthenticator {
  authenticate(token: string): Promise<Authenticated | undefined>;
  close(): Promise<void>;
}

export const SESSION_CACHE_CHANNEL = 'session_cache';

/** How many sessions a process keeps, and for how long at most whatever the notifications say. */
export const SESSION_CACHE_ENTRIES = 10_000;
export const SESSION_CACHE_MAX_AGE_MS = 5 * 60_000;

// A session is read from memory only within TOUCH_EVERY_MS of its recorded activity; past that the
// touch goes to the database, which decides the idle timeout on its own clock. So the timeout stays
// exact only while it is longer than the touch interval.
if (SESSION_IDLE_TIMEOUT_MS <= TOUCH_EVERY_MS) throw new Error('the idle timeout must be longer than the touch interval');

interface Entry {
  found: FoundSession;
  cachedAt: number;
}

/** The map itself, without the database: what the unit tests drive. */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<number, Set<string>>();
  /** Bumped by every notification and every change of `usable`: a lookup begun before is not stored. */
  private version = 0;
  private listening = false;

  constructor(
    private readonly limits: { entries: number; maxAgeMs: number } = {
      entries: SESSION_CACHE_ENTRIES,
      maxAgeMs: SESSION_CACHE_MAX_AGE_MS,
    },
    private readonly now: () => number = Date.now,
  ) {}

  get usable(): boolean {
    return this.listening && this.limits.entries > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** What a lookup about to read the database takes, to hand back to `store`. */
  get generation(): number {
    return this.version;
  }

  setListening(listening: boolean): void {
    this.listening = listening;
    this.forgetAll();
  }

  get(tokenHash: string): FoundSession | undefined {
    if (!this.usable) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (this.now() - entry.cachedAt > this.limits.maxAgeMs) {
      this.forget(tokenHash, entry);
      return undefined;
    }
    // Least recently used first out: a hit moves to the end.
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, entry);
    return entry.found;
  }

  /** Keeps a session read from the database, unless anything was forgotten since `generation`. */
  store(tokenHash: string, found: FoundSession, generation: number): void {
    if (!this.usable || generation !== this.version) return;
    const old = this.entries.get(tokenHash);
    if (old) this.forget(tokenHash, old);
    this.entries.set(tokenHash, { found, cachedAt: this.now() });
    const hashes = this.byUser.get(found.user.id) ?? new Set<string>();
    hashes.add(tokenHash);
    this.byUser.set(found.user.id, hashes);
    while (this.entries.size > this.limits.entries) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Entry];
      this.forget(oldest, entry);
    }
  }

  /** A session's activity written again: the time the database recorded. */
  touched(tokenHash: string, lastSeenAt: Date): void {
    const entry = this.entries.get(tokenHash);
    if (entry) entry.found = { ...entry.found, lastSeenAt };
  }

  /** A notification's payload: an account's id, or '*' for all. */
  notified(payload: string): void {
    const userId = Number(payload);
    if (payload === '*' || !Number.isSafeInteger(userId)) return this.forgetAll();
    this.version++;
    for (const hash of this.byUser.get(userId) ?? []) this.entries.delete(hash);
    this.byUser.delete(userId);
  }

  forgetToken(tokenHash: string): void {
    const entry = this.entries.get(tokenHash);
    if (entry) this.forget(tokenHash, entry);
  }

  forgetAll(): void {
    this.version++;
    this.entries.clear();
    this.byUser.clear();
  }

  private forget(tokenHash: string, entry: Entry): void {
    this.entries.delete(tokenHash);
    const hashes = this.byUser.get(entry.found.user.id);
    hashes?.delete(tokenHash);
    if (hashes?.size === 0) this.byUser.delete(entry.found.user.id);
  }
}

/**
 * Authenticates through a SessionCache kept true by the database's notifications. With
 * `enabled: false` (SESSION_CACHE=off) every request is looked up, as before.
 */
export async function startSessionAuthenticator(db: Database, options: { enabled: boolean }): Promise<SessionAuthenticator> {
  if (!options.enabled)
    return {
      authenticate: async (token) => strip(await findSession(db, hashToken(token))),
      close: async () => undefined,
    };
  const cache = new SessionCache();
  const listener = await listenForNotifications(db, SESSION_CACHE_CHANNEL, {
    onNotify: (payload) => cache.notified(payload),
    onListening: (listening) => cache.setListening(listening),
  });
  return {
    authenticate: (token) => authenticateCached(db, cache, listener, hashToken(token)),
    close: () => listener.close(),
  };
}

async function authenticateCached(
  db: Database,
  cache: SessionCache,
  listener: NotificationListener,
  tokenHash: string,
): Promise<Authenticated | undefined> {
  if (cache.get(tokenHash)) {
    const ready = await listener.barrier().then(
      () => true,
      () => false,
    );
    // Asked again: a notification committed before this request began has now been applied.
    const found = ready ? cache.get(tokenHash) : undefined;
    if (found) {
      if (Date.now() - found.lastSeenAt.getTime() <= TOUCH_EVERY_MS) return strip(found);
      const seen = await touchSession(db, found.sessionId);
      if (!seen) {
        cache.forgetToken(tokenHash);
        return undefined;
      }
      cache.touched(tokenHash, seen);
      return strip(found);
    }
  }
  const generation = cache.generation;
  const found = await findSession(db, tokenHash);
  if (found) cache.store(tokenHash, found, generation);
  return strip(found);
}

/** A copy for the request: what a handler does with its user never reaches the cache. */
function strip(found: FoundSession | undefined): Authenticated | undefined {
  if (!found) return undefined;
  return { sessionId: found.sessionId, user: { ...found.user, permissions: [...found.user.permissions] } };
}
