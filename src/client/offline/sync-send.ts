import * as v from 'valibot';
import { db, draftRowSchema, outboxRowSchema, readRow, readRows, reportStoredRow, type OutboxRow } from './db';
import { engineState } from './engine-state';
import { LocalIdNotYetKnown, resolveId, serverRef } from './local-ids';
import { handlerOf, type HoldContext, type MutationHandler, type SendContext } from './mutation-registry';
import { KnownVersions, ownVersion, type SentVersion } from './sync-own-versions';
import { reportStorageError } from './persist';
import type { SendOutcome } from './send-outcome';
import { applyOutcome } from './sync-settle';
import { sendEnded, sendStarted } from './sync-settle-together';
import { batchingAvailable, batchSendEnded, batchSendStarted, syncApi } from './sync-batch';
import { setPhase } from './sync-phase';
import { currentToken, currentUserId } from '../session/current-session';

/**
 * The sync engine's sending (decision 380): one pass over the signed-in user's outbox, each write
 * sent in its scope's lane, in order within the scope, a few scopes side by side. What an answer
 * writes is sync-settle.ts's; when passes run, and in which tab, is sync-engine.ts's.
 */

/** What a pass reads and writes of the engine that runs it (sync-engine.ts). */
export interface PassRunner {
  /** The token a 401 came with: nothing is sent until the session has another one. */
  pausedToken: string | null;
  failures: number;
  /** Run another pass once this one ends. */
  rerun: boolean;
  /** The highest outbox seq a pass has read: a write queued since has a higher one. */
  seenSeq: number;
  /** Still this tab's engine (not stopped since). */
  isCurrent(): boolean;
  /** Pushes again after `delayMs` (a write over a limit, 429). */
  retryAfter(delayMs: number): void;
}

function holdContext(row: OutboxRow): HoldContext {
  return {
    userId: row.userId,
    queuedAfter: async (match) =>
      (await db.outbox
        .where('seq')
        .above(row.seq)
        .filter((other) => other.userId === row.userId && match(other.kind, other.payload))
        .first()) !== undefined,
    draftsNeedingAttention: async () => {
      const rows = await db.drafts
        .where('[userId+status]')
        .anyOf([
          [row.userId, 'rejected'],
          [row.userId, 'conflict'],
        ])
        .toArray();
      return readRows('drafts', draftRowSchema, rows).map((draft) => draft.key);
    },
  };
}

/** A scope as the server knows it: a local id already mapped orders with its server id's writes. */
async function scopeKey(userId: number, scope: string | null): Promise<string | null> {
  if (scope === null) return null;
  return (await serverRef(userId, scope)) ?? scope;
}

export type PassEnd = 'drained' | 'offline' | 'paused';

/** What one write came to in a pass. */
type WriteEnd = 'settled' | 'blocked' | 'skipped' | { stop: 'offline' | 'paused' };

async function sendOne(
  current: PassRunner,
  row: OutboxRow,
  handler: MutationHandler<unknown>,
  known: KnownVersions,
  answered: () => void,
): Promise<WriteEnd> {
  const parsed = v.safeParse(handler.payload, row.payload);
  if (!parsed.success) {
    reportStoredRow('outbox', row.seq, v.summarize(parsed.issues));
    // Cannot be built into a request: answered as refused (its draft keeps what it carried).
    await applyOutcome(row, handler, row.payload, { type: 'rejected', error: 'unhandled' }, null);
    return 'settled';
  }
  const payload = parsed.output;
  let sent: SentVersion | null = null;
  const context: SendContext = {
    api: syncApi,
    idempotencyKey: row.id,
    userId: row.userId,
    resolveId: (id) => resolveId(row.userId, id),
    ownVersion: async (key, base) => {
      const version = await ownVersion(row.userId, key, base, known);
      sent = { key, from: version };
      return version;
    },
  };
  let outcome: SendOutcome;
  sendStarted();
  batchSendStarted();
  try {
    outcome = await handler.send(payload, context);
  } catch (error) {
    outcome =
      error instanceof LocalIdNotYetKnown
        ? { type: 'blocked' }
        : error instanceof v.ValiError
          ? { type: 'rejected', error: 'unhandled' }
          : { type: 'retry' };
  }
  sendEnded(outcome.type === 'done' || outcome.type === 'rejected' || outcome.type === 'conflict');
  batchSendEnded();
  answered();
  switch (outcome.type) {
    case 'blocked':
      return 'blocked';
    case 'unauthorized':
      current.pausedToken = currentToken();
      return { stop: 'paused' };
    case 'retry':
      if (outcome.retryAfterMs !== undefined) {
        // Over a limit (429): kept, sent again after the wait; its form says why it waits (decision 554).
        await db.outbox.update(row.seq, { heldUntil: Date.now() + outcome.retryAfterMs });
        current.retryAfter(outcome.retryAfterMs);
      }
      return { stop: 'offline' };
    default:
      current.failures = 0;
      await applyOutcome(row, handler, payload, outcome, sent);
      if (outcome.type === 'done' && sent !== null) known.add((sent as SentVersion).key);
      return 'settled';
  }
}

/** Writes in different scopes sent side by side, at most this many at once (decision 380). */
export const PARALLEL_SCOPES = 4;
/**
 * Writes that go together in one call (a handler's `batched`, while the server takes POST /batch):
 * at most this many scopes' side by side, in calls of up to BATCH_MAX_ITEMS (decision 702).
 */
export const PARALLEL_BATCHED_SCOPES = 20;

/** Sending slots: a write waits for one before it is sent, and gives it back at its answer. */
class Slots {
  private used = 0;
  private waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async take(): Promise<void> {
    while (this.used >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.used += 1;
  }
  give(): void {
    this.used -= 1;
    this.waiting.shift()?.();
  }
}

/**
 * One pass over the user's outbox (decision 380). The queue is read in one transaction (and again
 * for what was queued while it ran), each write is put at the end of its scope's lane, and the
 * lanes run side by side, at most PARALLEL_SCOPES sends at once: a write never waits for another
 * scope's, only for the one before it in its own scope. A write with no scope has a lane of its own.
 */
export async function runPass(current: PassRunner): Promise<PassEnd> {
  const userId = currentUserId();
  if (userId === null) return 'paused';
  if (current.pausedToken !== null && current.pausedToken === currentToken()) return 'paused';
  current.pausedToken = null;
  const blockedScopes = new Set<string>();
  const known = new KnownVersions(userId);
  /** The end of each scope's lane: the next write of that scope starts after it. */
  const lanes = new Map<string, Promise<void>>();
  const running = new Set<Promise<void>>();
  const alone = new Slots(PARALLEL_SCOPES);
  const together = new Slots(PARALLEL_BATCHED_SCOPES);
  let stop: PassEnd | null = null;
  let blocked = false;
  let settled = false;

  const stopped = () => {
    // Stopped (the layout went away), or another user signed in meanwhile: stop here.
    if (!current.isCurrent() || currentUserId() !== userId) stop ??= 'paused';
    return stop !== null;
  };

  /** One write, its turn in its lane come: held, skipped, or sent once a sending slot is free. */
  const turn = async (row: OutboxRow, handler: MutationHandler<unknown>, payload: unknown, scope: string | null) => {
    if (stopped()) return;
    if (scope !== null && blockedScopes.has(scope)) return;
    // Held, not blocked: the writes after it (what it waits for) go on.
    if (payload !== undefined && handler.holdWhile && (await handler.holdWhile(payload, holdContext(row)))) return;
    const slots = handler.batched && batchingAvailable() ? together : alone;
    await slots.take();
    if (stopped()) {
      slots.give();
      return;
    }
    // The slot is another scope's as soon as the answer is here: writing the answer on the device
    // keeps this scope's lane (its next write waits for it), not the network (docs/decisions.md (606)).
    let holding = true;
    const freeSlot = () => {
      if (!holding) return;
      holding = false;
      slots.give();
    };
    let end: WriteEnd;
    try {
      end = await sendOne(current, row, handler, known, freeSlot);
    } finally {
      freeSlot();
    }
    if (typeof end === 'object') stop ??= end.stop;
    else if (end === 'blocked') {
      blocked = true;
      if (scope !== null) blockedScopes.add(scope);
    } else if (end === 'settled') settled = true;
  };

  let lastSeq = 0;
  while (!stopped()) {
    // Every write queued after the last one taken, in one read (not one read per write).
    const rows = await db.outbox
      .where('seq')
      .above(lastSeq)
      .filter((row) => row.userId === userId)
      .toArray();
    if (rows.length === 0) {
      if (running.size === 0) break;
      // Once the lanes are done, what they queued meanwhile (a follow-up write) is read too.
      while (running.size > 0) await Promise.all(running);
      continue;
    }
    lastSeq = rows[rows.length - 1]!.seq;
    current.seenSeq = Math.max(current.seenSeq, lastSeq);
    if (engineState().phase !== 'syncing') await setPhase('syncing');
    for (const next of rows) {
      const row = readRow('outbox', outboxRowSchema, next);
      // Unreadable (reported, kept), or of a kind no feature has registered (yet): it waits.
      const handler = row ? handlerOf(row.kind) : undefined;
      if (!row || !handler) continue;
      const parsed = v.safeParse(handler.payload, row.payload);
      const payload = parsed.success ? parsed.output : undefined;
      const named = parsed.success ? handler.scope(parsed.output) : null;
      const scope = await scopeKey(userId, named);
      // A local id mapped while this pass read its writes (its create answered meanwhile): the
      // writes read before under the local id and those read after under the server id are one
      // lane, so this one also waits for the local id's (a later write never overtakes them).
      const keys = [...new Set([named, scope])].filter((key): key is string => key !== null);
      const before = keys.map((key) => lanes.get(key)).filter((lane) => lane !== undefined);
      const work = Promise.all(before).then(() => turn(row, handler, payload, scope));
      const tracked = work.catch((error: unknown) => {
        reportStorageError(error);
        stop ??= 'offline';
      });
      running.add(tracked);
      void tracked.finally(() => running.delete(tracked));
      for (const key of keys) lanes.set(key, tracked);
    }
  }
  while (running.size > 0) await Promise.all(running);
  if (stop !== null) return stop;
  // A write that waited for a local id another write of this pass may have made: once more.
  if (blocked && settled) current.rerun = true;
  return 'drained';
}
