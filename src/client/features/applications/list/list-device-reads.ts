import { useMemo } from 'react';
import { useAtomValue } from 'jotai';
import { sessionUserAtom } from '../../../session/session';
import { useDeviceQuery } from '../../../offline/device-query';
import type { PendingCreate } from '../offline/pending-creates';

/**
 * What the applications list reads from the device: its code (the outbox, the drafts, Dexie) is
 * loaded once the list has mounted, so the list's first paint does not wait for it
 * (docs/decisions.md (630)); until then, and when nothing waits, nothing is shown.
 */

const loadReads = () => import('../offline/pending-creates');

const none: readonly PendingCreate[] = [];
const noPairs: readonly [string, string][] = [];

/** Applications this user created on this device that are still waiting to be sent. */
export function usePendingCreates(): readonly PendingCreate[] {
  const userId = useAtomValue(sessionUserAtom)?.id ?? null;
  return useDeviceQuery(loadReads, async (reads) => (userId === null ? none : reads.readPendingCreates(userId)), [userId], none);
}

/** Applications of the server with a refused write, by id, with the step where it is fixed (decision 342). */
export function useApplicationsNeedingAttention(): ReadonlyMap<string, string> {
  const userId = useAtomValue(sessionUserAtom)?.id ?? null;
  const pairs = useDeviceQuery(
    loadReads,
    async (reads): Promise<readonly [string, string][]> =>
      userId === null ? noPairs : reads.readApplicationsNeedingAttention(userId),
    [userId],
    noPairs,
  );
  return useMemo(() => new Map(pairs), [pairs]);
}
