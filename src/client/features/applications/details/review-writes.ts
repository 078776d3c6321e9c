import { useAtomValue } from 'jotai';
import * as v from 'valibot';
import { useSafeLiveQuery } from '../../../offline/live';
import { readQueued } from '../../../offline/outbox';
import { sessionUserAtom } from '../../../session/session';
import { reviewDecisions, type ReviewCheck } from '../offline/review-mutations';

type Checks = Partial<Record<ReviewCheck, boolean>>;
const none: Checks = {};

/** Staff's ticks of this application's checks still on the device (made offline, not sent yet): the latest of each. */
export function useQueuedChecks(applicationId: number): Checks {
  const userId = useAtomValue(sessionUserAtom)?.id ?? null;
  const queued = useSafeLiveQuery(
    async (): Promise<Checks> => {
      if (userId === null) return none;
      const latest: Checks = {};
      for (const row of await readQueued(userId, 'reviewCheck'))
        if (row.applicationId === applicationId) latest[row.check] = row.status;
      return latest;
    },
    [userId, applicationId],
    none,
  );
  return queued ?? none;
}

/** What a refused write of the review screen left under its key (its kind's draftValue). */
export const decisionValue = v.object({ decision: v.picklist(reviewDecisions) });
export const checkValue = v.object({ status: v.boolean() });
export const amountValue = v.object({ amount: v.number() });
