import { useAtomValue } from 'jotai';
import { useDraft, type UseDraft } from '../../../offline/drafts';
import { useSafeLiveQuery } from '../../../offline/live';
import { readQueued } from '../../../offline/outbox';
import { sessionUserAtom } from '../../../session/session';
import {
  draftLoanAmountKey,
  reviewCheckKey,
  reviewDecisionKey,
  type ReviewCheck,
  type ReviewDecision,
} from '../offline/review-mutations';

/** Staff's review writes of this application still on the device (made offline, not sent yet). */
export interface QueuedReview {
  checks: Partial<Record<ReviewCheck, boolean>>;
  decision: ReviewDecision | undefined;
  amount: number | undefined;
}

const nothing: QueuedReview = { checks: {}, decision: undefined, amount: undefined };

export function useQueuedReview(applicationId: number): QueuedReview {
  const userId = useAtomValue(sessionUserAtom)?.id ?? null;
  const queued = useSafeLiveQuery(
    async (): Promise<QueuedReview> => {
      if (userId === null) return nothing;
      const [checks, decisions, amounts] = await Promise.all([
        readQueued(userId, 'reviewCheck'),
        readQueued(userId, 'reviewDecision'),
        readQueued(userId, 'draftLoanAmount'),
      ]);
      const mine = <T extends { applicationId: number }>(rows: T[]) => rows.filter((row) => row.applicationId === applicationId);
      const latest: QueuedReview['checks'] = {};
      for (const row of mine(checks)) latest[row.check] = row.status;
      return { checks: latest, decision: mine(decisions)[0]?.decision, amount: mine(amounts).at(-1)?.amount };
    },
    [userId, applicationId],
    nothing,
  );
  return queued ?? nothing;
}

function parseWith<K extends string, V>(field: K, check: (value: unknown) => value is V) {
  return (stored: unknown): Record<K, V> | null =>
    stored && typeof stored === 'object' && check((stored as Record<string, unknown>)[field])
      ? ({ [field]: (stored as Record<string, unknown>)[field] } as Record<K, V>)
      : null;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

/** A decision the server refused (kept by the engine under the decision's key until dismissed). */
export function useDecisionRefusal(applicationId: number): UseDraft<{ decision: string }> {
  return useDraft(reviewDecisionKey(applicationId), parseWith('decision', isString));
}

export function useCheckRefusal(applicationId: number, check: ReviewCheck): UseDraft<{ status: boolean }> {
  return useDraft(reviewCheckKey(applicationId, check), parseWith('status', isBoolean));
}

export function useAmountRefusal(applicationId: number): UseDraft<{ amount: number }> {
  return useDraft(draftLoanAmountKey(applicationId), parseWith('amount', isNumber));
}
