import { useAtomValue } from 'jotai';
import * as v from 'valibot';
import type { Journey, JourneyStep } from '../../../../shared/journey/steps';
import { journeySteps } from '../../../../shared/journey/steps';
import { sessionUserAtom } from '../../../session/session';
import { readDrafts } from '../../../offline/drafts';
import { useSafeLiveQuery } from '../../../offline/live';
import { readQueued } from '../../../offline/outbox';
import { readRefusals } from '../../../offline/attention';
import { paths } from '../../../routing/paths';
import { isLocalApplicationId, parseStepDraftKey } from './application-ids';
import './application-mutations';

/**
 * What the outbox still holds for the screens: applications created on this device and not yet
 * received by the server (the list shows them on top), and step saves not yet sent (the wizard
 * counts them as saved: the step bar and locking follow what the user has done, not the network).
 */

export interface PendingCreate {
  localId: string;
  name: string;
  surname: string;
  /** The client details sent (journey data); for a refused create, the form's values instead. */
  personal: Record<string, unknown>;
  /**
   * The server refused the create after it was sent from the outbox (e.g. the email already has an
   * account): nothing was created, and the client details wait on the device, with the server's
   * messages, until the user corrects them and saves again (save-step.ts sends a new create).
   */
  refused: boolean;
}

const personalNames = v.object({
  firstName: v.optional(v.string(), ''),
  lastName: v.optional(v.string(), ''),
});

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export async function readPendingCreates(userId: number): Promise<PendingCreate[]> {
  const creates = await readQueued(userId, 'createApplication');
  const waiting: PendingCreate[] = creates.flatMap((create) => {
    const personal = asRecord(create.personal);
    const names = v.safeParse(personalNames, personal);
    return [
      {
        localId: create.localId,
        name: names.success ? names.output.firstName : '',
        surname: names.success ? names.output.lastName : '',
        personal,
        refused: false,
      },
    ];
  });
  const waitingIds = new Set(waiting.map((create) => create.localId));
  const drafts = await readDrafts(userId, 'rejected');
  const refused: PendingCreate[] = drafts.flatMap((draft) => {
    const named = parseStepDraftKey(draft.key);
    const localId = named?.step === 'personal' && isLocalApplicationId(named.applicationId) ? named.applicationId : undefined;
    if (!localId || waitingIds.has(localId) || draft.status !== 'rejected') return [];
    const values = asRecord(draft.value);
    const names = v.safeParse(personalNames, values);
    return [
      {
        localId,
        name: names.success ? names.output.firstName : '',
        surname: names.success ? names.output.lastName : '',
        personal: values,
        refused: true,
      },
    ];
  });
  return [...waiting, ...refused];
}

/** Whether a create of this local application is still in the outbox (a refused one is not). */
export async function hasWaitingCreate(userId: number, localId: string): Promise<boolean> {
  return (await readPendingCreates(userId)).some((create) => create.localId === localId && !create.refused);
}

export type PendingCreateState = { loaded: false } | { loaded: true; create: PendingCreate | null };

/** The waiting create of one local application (null once it has gone, or if it never existed). */
export function usePendingCreate(localId: string | null): PendingCreateState {
  const user = useAtomValue(sessionUserAtom);
  const result = useSafeLiveQuery(
    async () => {
      if (!user || localId === null) return { create: null };
      const creates = await readPendingCreates(user.id);
      return { create: creates.find((create) => create.localId === localId) ?? null };
    },
    [user?.id, localId],
    { create: null },
  );
  return result ? { loaded: true, create: result.create } : { loaded: false };
}

/**
 * Step saves of one application still in the outbox, the latest per step; undefined until the
 * device has been read, so a screen that decides from them (which step may open) waits for them.
 */
export function usePendingSteps(applicationId: number | string | null): Partial<Journey> | undefined {
  const user = useAtomValue(sessionUserAtom);
  const result = useSafeLiveQuery(
    async () => {
      if (!user || applicationId === null) return {};
      const saves = await readQueued(user.id, 'saveStep');
      const journey: Partial<Record<JourneyStep, unknown>> = {};
      for (const save of saves) {
        if (String(save.applicationId) !== String(applicationId)) continue;
        if ((journeySteps as readonly string[]).includes(save.step)) journey[save.step] = save.data;
      }
      return journey as Partial<Journey>;
    },
    [user?.id, applicationId],
    {},
  );
  return result;
}

/** The asset step holds the application's files. */
const FILES_STEP = 'asset';

/**
 * Applications of the server with a write refused on this device (a step save, a submit, a file),
 * as pairs of id and the step where it is fixed: the list flags them (decision 342).
 */
export async function readApplicationsNeedingAttention(userId: number): Promise<[string, string][]> {
  const { draftKeys, fileOwners } = await readRefusals(userId);
  const flagged = new Map<string, string>();
  for (const key of draftKeys) {
    const named = parseStepDraftKey(key);
    if (named && !isLocalApplicationId(named.applicationId) && !flagged.has(named.applicationId))
      flagged.set(named.applicationId, paths.applicationStep.url({ id: named.applicationId, step: named.step }));
  }
  for (const owner of fileOwners)
    if (!isLocalApplicationId(owner) && !flagged.has(owner))
      flagged.set(owner, paths.applicationStep.url({ id: owner, step: FILES_STEP }));
  return [...flagged];
}
