import { changeRowId, changeRowSchema, db, readRow } from './db';

/**
 * The sync engine's answers written together: several answers in one IndexedDB transaction, so the
 * outbox, the results and the screens' live queries change once per group (decisions 382, 385).
 */

interface Settling {
  /** Whose answer: their change count grows by one for it (decisions 340, 403). */
  userId: number;
  work: () => Promise<void>;
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
    for (const { userId, work } of items) {
      await work();
      answered.set(userId, (answered.get(userId) ?? 0) + 1);
    }
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
export function settleTogether(userId: number, work: () => Promise<void>): Promise<void> {
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
