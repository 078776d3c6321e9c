import { useAtomValue } from 'jotai';
import { useCallback, useRef, useState } from 'react';
import * as v from 'valibot';
import { errorMessages } from '../../shared/rules/error-codes';
import { sessionUserAtom } from '../session/session';
import type { FocusLanding } from '../ui/focus-return';
import { useConfirm } from '../ui/modal-store';
import { useDraft, type DraftRecord } from './drafts';
import { useSafeLiveQuery } from './live';
import type { MutationKind, MutationKinds } from './mutation-registry';
import { enqueue, readQueuedWrites, waitForResult, type MutationInput, type MutationResult } from './outbox';

/**
 * A decision about one record made with a button, not a form (block a loan, approve a drawdown,
 * accept an application, a new draft amount): asked first, sent through the outbox, kept on the
 * device while offline, and, when the server refuses it (someone else acted first), kept under its
 * draft key until the person has read why and dismissed it (docs/decisions.md (660)).
 */

export interface QueuedDecisionOptions<V> {
  /** What the refused write left under its key (its kind's `draftValue`), read back with this schema. */
  refused: v.GenericSchema<unknown, V>;
  /** The record changed, or its refusal was read: the screen reads it again. */
  onChanged?: () => void;
}

/** What a run came to: the outbox's answer, or it was not queued ('declined' at the question, 'failed' to queue). */
export type DecisionResult = MutationResult | { status: 'declined' } | { status: 'failed' };

export interface RunOptions {
  /** Asked first; 'No' or Escape queues nothing. */
  question?: string;
  /** Where the focus goes if the button that asked is gone once the decision is made. */
  focusAfter?: FocusLanding;
}

export interface QueuedDecision<K extends MutationKind, V> {
  /** This record's latest write of the kind still on the device (made offline, not sent yet). */
  waiting: MutationKinds[K] | undefined;
  /** The write the server refused, with its code, kept until dismissed. */
  refusal: DraftRecord<V> | undefined;
  /** Forgets the refusal (it no longer counts in 'Needs your attention'), then onChanged. */
  dismiss(): Promise<void>;
  /** The payload being sent (confirmed, not answered yet): its button shows busy, the others wait. */
  busy: MutationKinds[K] | null;
  /** Why the last run could not be queued, in the spec's words (null: nothing to say). */
  message: string | null;
  /** Asks, queues the write under the draft key and waits for its answer (done: onChanged); one run at a time. */
  run(payload: MutationKinds[K], options?: RunOptions): Promise<DecisionResult>;
}

/**
 * The decision of `kind` about the record `draftKey` names: the key is also how its writes waiting
 * on the device are told from those about other records.
 */
export function useQueuedDecision<K extends MutationKind, V>(
  kind: K,
  draftKey: string,
  { refused: schema, ...options }: QueuedDecisionOptions<V>,
): QueuedDecision<K, V> {
  const confirm = useConfirm();
  const userId = useAtomValue(sessionUserAtom)?.id ?? null;
  const onChanged = useRef(options.onChanged);
  onChanged.current = options.onChanged;

  const draft = useDraft<V>(draftKey, (stored) => {
    const parsed = v.safeParse(schema, stored);
    return parsed.success ? parsed.output : null;
  });
  const waiting = useSafeLiveQuery(
    async () =>
      userId === null
        ? undefined
        : (await readQueuedWrites(userId, kind)).filter((write) => write.draftKey === draftKey).at(-1)?.payload,
    [userId, kind, draftKey],
    undefined,
  );

  const [busy, setBusy] = useState<MutationKinds[K] | null>(null);
  const running = useRef(false);
  const [message, setMessage] = useState<string | null>(null);

  const run = useCallback(
    async (payload: MutationKinds[K], { question, focusAfter }: RunOptions = {}): Promise<DecisionResult> => {
      if (running.current) return { status: 'declined' };
      running.current = true;
      try {
        if (question !== undefined && !(await confirm(focusAfter ? { message: question, focusAfter } : question))) {
          return { status: 'declined' };
        }
        setBusy(payload);
        setMessage(null);
        try {
          const result = await waitForResult(await enqueue({ kind, ...payload, draftKey } as MutationInput));
          if (result.status === 'done') onChanged.current?.();
          return result;
        } catch {
          setMessage(errorMessages.unhandled);
          return { status: 'failed' };
        }
      } finally {
        running.current = false;
        setBusy(null);
      }
    },
    [confirm, kind, draftKey],
  );

  const { clear } = draft;
  const dismiss = useCallback(async () => {
    await clear();
    onChanged.current?.();
  }, [clear]);
  return {
    waiting,
    refusal: draft.draft?.status === 'rejected' ? draft.draft : undefined,
    dismiss,
    busy,
    message,
    run,
  };
}
