import { db, draftRowId, draftRowSchema, newUuid, readRow, type DraftRow, type OutboxRow } from './db';
import { currentDraftKey } from './drafts';
import type { MutationHandler, SettledContext } from './mutation-registry';
import type { SentVersion } from './sync-own-versions';
import type { SendOutcome } from './send-outcome';
import { settleTogether, type SettleWrites } from './sync-settle-together';

/**
 * The sync engine's settling: what an answer (taken, refused, in conflict) writes on the device,
 * the outbox row, the kept result and the draft, in one transaction (sync-settle-together.ts).
 */

/** A refused or conflicting write's draft row (made from what the write carried if it is gone). */
async function draftForOutcome(
  row: OutboxRow,
  handler: MutationHandler<unknown> | undefined,
  payload: unknown,
  draftKey: string,
  at: number,
  writes: SettleWrites,
): Promise<DraftRow> {
  const id = draftRowId(row.userId, draftKey);
  const stored = readRow('drafts', draftRowSchema, await writes.getDraft(id));
  if (stored) return stored;
  const carried = handler?.draftValue?.(payload);
  return {
    id,
    userId: row.userId,
    key: draftKey,
    value: carried?.value,
    baseVersion: carried?.baseVersion ?? 0,
    updatedAt: at,
    status: 'editing',
  };
}

function settledContext(userId: number, at: number, writes: SettleWrites): SettledContext {
  return {
    userId,
    at,
    enqueue: async (kind, payload) => {
      await writes.flush();
      await db.outbox.add({ id: newUuid(), userId, kind, payload, createdAt: at, attempts: 0 });
    },
  };
}

export type Settled = Extract<SendOutcome, { type: 'done' | 'rejected' | 'conflict' }>;

/** The one place an answer is written: the outbox row goes, the result is kept, and the draft follows. */
export async function applyOutcome(
  row: OutboxRow,
  handler: MutationHandler<unknown> | undefined,
  payload: unknown,
  outcome: Settled,
  sent: SentVersion | null,
): Promise<void> {
  const { userId } = row;
  // Every answer says something about the server's data: taken, the data changed; refused or in
  // conflict, it had moved on without this device (the credit used, the status changed). Every
  // tab's lists and records read it again (decisions 340 and 403): settleTogether adds the answer
  // to the user's change count, once for the group it is written with.
  await settleTogether(userId, async (writes) => {
    writes.deleteOutbox(row.seq);
    const at = Date.now();
    const context = settledContext(userId, at, writes);

    if (outcome.type === 'done') {
      const made = handler?.versionMade?.(outcome.body);
      const version = made !== undefined && sent ? { key: sent.key, from: sent.from, to: made } : undefined;
      writes.putResult({
        id: row.id,
        userId,
        status: 'done',
        body: outcome.body,
        ...(version ? { version } : {}),
        ...(made === undefined ? {} : { made }),
        at,
      });
      // A feature's own hook reads the stores as they are: what is pending is written first.
      if (handler?.onDone) {
        await writes.flush();
        await handler.onDone(payload, outcome.body, context);
      }
      // A local id the write mapped (onDone) renames its draft too.
      const draftKey = row.draftKey === undefined ? undefined : await currentDraftKey(userId, row.draftKey);
      if (draftKey !== undefined) {
        const draft = readRow('drafts', draftRowSchema, await writes.getDraft(draftRowId(userId, draftKey)));
        if (draft && draft.updatedAt === row.draftUpdatedAt && draft.status === 'queued') {
          writes.deleteDraft(draft.id);
        } else if (draft) {
          // Edited after the write was queued: the edit stays, now based on the saved version.
          const { serverCodes: _codes, serverError: _error, serverDetails: _details, ...rest } = draft;
          writes.putDraft({
            ...rest,
            status: draft.status === 'queued' ? 'editing' : draft.status,
            baseVersion: made ?? draft.baseVersion,
          });
        }
      }
      return;
    }

    if (outcome.type === 'rejected') {
      const fields = outcome.fields ?? {};
      const details = outcome.details === undefined ? {} : { details: outcome.details };
      writes.putResult({ id: row.id, userId, status: 'rejected', error: outcome.error, fields, ...details, at });
      if (handler?.onRejected) {
        await writes.flush();
        await handler.onRejected(payload, { error: outcome.error, fields }, context);
      }
    } else {
      writes.putResult({ id: row.id, userId, status: 'conflict', current: outcome.current, at });
    }
    if (row.draftKey === undefined) return;
    const draftKey = await currentDraftKey(userId, row.draftKey);
    const draft = await draftForOutcome(row, handler, payload, draftKey, at, writes);
    if (outcome.type === 'rejected') {
      const { conflict: _conflict, serverDetails: _details, ...rest } = draft;
      writes.putDraft({
        ...rest,
        status: 'rejected',
        serverCodes: outcome.fields ?? {},
        serverError: outcome.error,
        ...(outcome.details === undefined ? {} : { serverDetails: outcome.details }),
      });
    } else {
      const { serverCodes: _codes, serverError: _error, serverDetails: _details, ...rest } = draft;
      writes.putDraft({ ...rest, status: 'conflict', conflict: outcome.current });
    }
  });
}
