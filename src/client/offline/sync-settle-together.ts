import { changeRowId, changeRowSchema, db, readRow, type DraftRow, type ResultRow } from './db';

/**
 * The sync engine's answers written together: several answers in one IndexedDB transaction, so the
 * outbox, the results and the screens' live queries change once per group (decisions 382, 385).
 */

/**
 * The writes of a group's answers, made together at the end of its transaction with one request
 * per store (bulkDelete, bulkPut) instead of one per answer (decision 703).
 * A draft read back in the same group sees what an earlier answer of the group wrote. Before a
 * feature's own hook runs (onDone, onRejected, a follow-up write), what is pending is written, so the
 * hook reads the stores as they would be without the gathering.
 */
export class SettleWrites {
  private outboxDeletes: number[] = [];
  private results: ResultRow[] = [];
  /** The last write of each draft row: the row, or null when it is removed. */
  private drafts = new Map<string, DraftRow | null>();

  deleteOutbox(seq: number): void {
    this.outboxDeletes.push(seq);
  }

  putResult(row: ResultRow): void {
    this.results.push(row);
  }

  /** The stored draft row, as the group's earlier answers left it. */
  async getDraft(id: string): Promise<unknown> {
    if (this.drafts.has(id)) return this.drafts.get(id) ?? undefined;
    return db.drafts.get(id);
  }

  putDraft(row: DraftRow): void {
    this.drafts.set(row.id, row);
  }

  deleteDraft(id: string): void {
    this.drafts.set(id, null);
  }

  /** Writes what is pending, each store in one request. */
  async flush(): Promise<void> {
    const outbox = this.outboxDeletes;
    const results = this.results;
    const drafts = [...this.drafts];
    this.outboxDeletes = [];
    this.results = [];
    this.drafts = new Map();
    if (outbox.length > 0) await db.outbox.bulkDelete(outbox);
    if (results.length > 0) await db.results.bulkPut(results);
    const removed = drafts.filter(([, row]) => row === null).map(([id]) => id);
    const kept = drafts.map(([, row]) => row).filter((row): row is DraftRow => row !== null);
    if (removed.length > 0) await db.drafts.bulkDelete(removed);
    if (kept.length > 0) await db.drafts.bulkPut(kept);
  }
}

interface Settling {
  /** Whose answer: their change count grows by one for it (decisions 340, 403). */
  userId: number;
  work: (writes: SettleWrites) => Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Answers waiting for the transaction that writes them, and that transaction, if one is under way. */
let settling: Settling[] = [];
let committing: Promise<void> | null = null;
/** Sends whose answer has not come yet: an answer waits a little for theirs (decision 385). */
let sendsUnderWay = 0;
let gathering: ReturnType<typeof setTimeout> | null = null;
/**
 * The longest an answer waits for the answers of the other sends under way before it is written.
 * Its send's slot is free meanwhile (sync-send.ts): only its own scope's next write waits for it,
 * and only while another send is under way (docs/decisions.md (606)).
 */
export const SETTLE_GATHER_MS = 100;

/**
 * Every answer of the group, then each user's change count once for all of theirs: every answer
 * says the server's data moved on (decisions 340, 403), and the screens that follow the count read
 * it once per group, not once per answer (docs/decisions.md (606)).
 */
function settleTransaction(items: Settling[]): Promise<void> {
  return db.transaction('rw', [db.outbox, db.drafts, db.results, db.idMap, db.uploads, db.meta], async () => {
    const answered = new Map<number, number>();
    const writes = new SettleWrites();
    for (const { userId, work } of items) {
      await work(writes);
      answered.set(userId, (answered.get(userId) ?? 0) + 1);
    }
    await writes.flush();
    const at = Date.now();
    for (const [userId, count] of answered) {
      const changes = readRow('meta', changeRowSchema, await db.meta.get(changeRowId(userId)));
      await db.meta.put({ id: changeRowId(userId), count: (changes?.count ?? 0) + count, at });
    }
  });
}

/**
 * Writes one answer's changes (applyOutcome's) in a transaction (decisions 382, 385). An answer
 * that comes while other sends are under way waits for their answers, at most SETTLE_GATHER_MS,
 * and answers that come while a transaction is under way are written together in the next one,
 * each as a whole and in the order they came: the outbox, the results and every screen's live
 * queries change once per group of answers instead of once per write. A lone answer (a screen's
 * one save) is written at once. If a transaction of several fails, each is written alone, so only
 * the one that cannot be written fails.
 */
export function settleTogether(userId: number, work: (writes: SettleWrites) => Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    settling.push({ userId, work, resolve, reject });
    settleWhenGathered();
  });
}

function settleWhenGathered(): void {
  if (committing || settling.length === 0) return;
  if (sendsUnderWay > 0) {
    gathering ??= setTimeout(commitSettling, SETTLE_GATHER_MS);
    return;
  }
  commitSettling();
}

function commitSettling(): void {
  if (gathering) clearTimeout(gathering);
  gathering = null;
  if (committing || settling.length === 0) return;
  committing = (async () => {
    while (settling.length > 0) {
      const batch = settling;
      settling = [];
      try {
        await settleTransaction(batch);
        batch.forEach((item) => item.resolve());
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        else for (const item of batch) await settleTransaction([item]).then(item.resolve, item.reject);
      }
    }
    committing = null;
  })();
}

/** A send is under way: an answer that comes meanwhile waits a little for its answer. */
export function sendStarted(): void {
  sendsUnderWay += 1;
}

/**
 * A send has its answer. One that writes nothing (blocked, unauthorized, to be sent again) is
 * said so: the answers gathered for the transaction may have waited for this one alone.
 */
export function sendEnded(writesAnswer: boolean): void {
  sendsUnderWay -= 1;
  if (!writesAnswer) settleWhenGathered();
}
