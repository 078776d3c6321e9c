import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import { queryRows, type Database } from '../../db/connection';
import { envelopeDocuments, files } from '../../db/schema';
import { sha256Hex } from '../../esign/builtin';
import { addDocumentTimeStamp } from '../../esign/pades-seal';
import { TimeStampUnavailable } from '../../esign/pades/timestamp';
import { newFileKey, type FileStorage } from '../../files/storage';
import { recordAudit } from '../audit';
import { readStoredBytes, recordEnvelopeEvent } from './envelope-record';
import { repeatInBackground } from '../../background/repeat';

interface Claimed {
  id: number;
  envelope_id: string;
  position: number;
  signed_file_id: number;
  signed_sha256: string;
  timestamp_attempts: number;
}

/** A claimed copy is left alone this long by other processes (a pass takes seconds). */
const CLAIM_MS = 5 * 60_000;
const BATCH = 10;
/** Asked again after 1, 2, 4 … minutes, at most hourly, for as long as it takes. */
const backoffMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

export interface TimestampPass {
  timestamped: number;
  failed: number;
}

/**
 * One pass over the signed copies owed a time-stamp (docs/decisions.md 479): each whose turn has
 * come gets a document time-stamp in an incremental update (the bytes it had stay its first part),
 * is stored under a new key, and its file row, recorded SHA-256 and PAdES level move to the new
 * copy in one transaction with a `timestamped` event and an audit entry. Rows are claimed with
 * SKIP LOCKED and a moved due time, so several processes never stamp the same copy. A copy whose
 * authority still does not answer waits longer each time.
 */
export async function timestampSignedCopies(
  db: Database,
  config: Config,
  storage: FileStorage,
  log: (message: string, error?: unknown) => void,
): Promise<TimestampPass> {
  const pass: TimestampPass = { timestamped: 0, failed: 0 };
  if (!config.esign.tsa) return pass;
  const claimed = await queryRows<Claimed>(
    db,
    sql`update envelope_documents
        set timestamp_due_at = now() + ${CLAIM_MS} * interval '1 millisecond', timestamp_attempts = timestamp_attempts + 1
        where id in (select id from envelope_documents where timestamp_due_at <= now()
                     order by timestamp_due_at limit ${BATCH} for update skip locked)
        returning id, envelope_id, position, signed_file_id, signed_sha256, timestamp_attempts`,
  );
  // Once the authority fails to answer in a pass, the rest of the pass does not wait for it again.
  let silent: unknown;
  for (const copy of claimed) {
    try {
      if (silent) throw silent;
      await timestampOne(db, config, storage, copy);
      pass.timestamped++;
    } catch (error) {
      if (error instanceof TimeStampUnavailable) silent = error;
      pass.failed++;
      const delayMs = backoffMs(copy.timestamp_attempts);
      await db.execute(
        sql`update envelope_documents set timestamp_due_at = now() + ${delayMs} * interval '1 millisecond'
            where id = ${copy.id} and timestamp_due_at is not null`,
      );
      log(`signed copy ${copy.id} (envelope ${copy.envelope_id}) not time-stamped; next try in ${delayMs / 60_000} min`, error);
    }
  }
  return pass;
}

async function timestampOne(db: Database, config: Config, storage: FileStorage, copy: Claimed): Promise<void> {
  const [file] = await db.select().from(files).where(eq(files.id, copy.signed_file_id));
  const bytes = file && (await readStoredBytes(storage, file.key));
  if (!file || !bytes || sha256Hex(bytes) !== copy.signed_sha256)
    throw new Error('the signed copy is missing or differs from its recorded SHA-256');
  const stamped = await addDocumentTimeStamp(config, new Uint8Array(bytes));
  const newKey = newFileKey();
  await storage.put(newKey, stamped.pdf);
  let kept = false;
  try {
    await db.transaction(async (tx) => {
      const [row] = await tx.select().from(envelopeDocuments).where(eq(envelopeDocuments.id, copy.id)).for('update');
      // Stamped meanwhile by another pass (a claim that outlived CLAIM_MS): theirs stands.
      if (!row || row.signedSha256 !== copy.signed_sha256 || !row.timestampDueAt) return;
      const signedSha256 = sha256Hex(stamped.pdf);
      await tx.update(files).set({ key: newKey, size: stamped.pdf.length }).where(eq(files.id, file.id));
      await tx
        .update(envelopeDocuments)
        .set({ signedSha256, padesLevel: stamped.level, timestampDueAt: null })
        .where(eq(envelopeDocuments.id, copy.id));
      const detail = {
        position: copy.position,
        previousSha256: copy.signed_sha256,
        signedSha256,
        padesLevel: stamped.level,
        ...(stamped.problems.length > 0 ? { problems: stamped.problems } : {}),
      };
      await recordEnvelopeEvent(tx, { envelopeId: copy.envelope_id, type: 'timestamped', detail });
      await recordAudit(tx, {
        actorUserId: null,
        entityType: 'envelope',
        entityId: copy.envelope_id,
        action: 'timestamped',
        from: { position: copy.position, sha256: copy.signed_sha256, padesLevel: row.padesLevel },
        to: { position: copy.position, sha256: signedSha256, padesLevel: stamped.level },
      });
      kept = true;
    });
  } finally {
    // Bytes left behind are found by the file housekeeping later; the copy itself is done.
    await storage.remove(kept ? file.key : newKey).catch(() => undefined);
  }
}

/** Runs a pass every minute (only with a time-stamping authority configured). */
export function startTimestamping(
  db: Database,
  config: Config,
  storage: FileStorage,
  log: (message: string, error?: unknown) => void,
  everyMs = 60_000,
): () => void {
  return repeatInBackground({
    name: 'time-stamping signed copies',
    everyMs,
    log,
    run: () => timestampSignedCopies(db, config, storage, log),
  });
}
