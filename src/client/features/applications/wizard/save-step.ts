import type { Journey, JourneyStep } from '../../../../shared/journey/steps';
import type { components } from '../../../../shared/api/schema';
import {
  enqueue,
  waitForResult,
  waitForVersionedResult,
  type MutationResult,
  type VersionedResult,
} from '../../../offline/outbox';
import { serverIdOf } from '../../../offline/local-ids';
import { isLocalApplicationId, submitRefusalKey } from '../offline/application-ids';
import '../offline/application-mutations';
import { currentUserId } from '../../../session/current-session';
import { hasWaitingCreate } from '../offline/pending-creates';

type ClientDetails = components['schemas']['ClientDetails'];

/**
 * 'Save & Continue' through the outbox: the save is on the device first (with its Idempotency-Key),
 * then sent. Online, the screen waits for the answer; offline it moves on and the save goes later.
 * The screen reads the engine's one result (done | queued | rejected | conflict) as it comes.
 */

export interface SaveStepInput {
  applicationId: number | string;
  step: JourneyStep;
  baseVersion: number;
  data: unknown;
  draftKey: string;
}

export async function saveStep(input: SaveStepInput): Promise<VersionedResult> {
  if (input.step === 'personal' && (await needsNewCreate(input.applicationId))) return createAgain(input);
  return waitForVersionedResult(await enqueue({ kind: 'saveStep', ...input }));
}

function asJourney(value: unknown): Journey {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Journey) : {};
}

/**
 * The step as the server stored it, from a done save's answer (a save answers `{ data, version }`,
 * a create the application with its `journey`); undefined when the answer does not say.
 */
export function savedStepData(body: unknown, step: JourneyStep): unknown {
  const answer = asJourney(body) as { data?: unknown; journey?: unknown };
  return asJourney(answer.data ?? answer.journey)[step];
}

/** The step in the server's copy of a conflicting save. */
export function conflictingStepData(current: { data: unknown }, step: JourneyStep): Record<string, unknown> {
  const data = asJourney(current.data)[step];
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
}

/** A local application whose create the server refused: its client details are not on the server yet. */
async function needsNewCreate(applicationId: number | string): Promise<boolean> {
  const userId = currentUserId();
  if (typeof applicationId !== 'string' || !isLocalApplicationId(applicationId) || userId === null) return false;
  // Created meanwhile (the screen has not moved to the server id yet): a save, not a second create.
  if ((await serverIdOf(applicationId)) !== undefined) return false;
  return !(await hasWaitingCreate(userId, applicationId));
}

/**
 * Corrected client details of a refused create: create the application again under the same local
 * id, so the saves already queued for it (waiting on that id) follow once it exists.
 */
async function createAgain(input: SaveStepInput): Promise<VersionedResult> {
  const id = await enqueue({
    kind: 'createApplication',
    localId: String(input.applicationId),
    personal: input.data as ClientDetails,
    draftKey: input.draftKey,
  });
  return waitForVersionedResult(id);
}

/** 'submit application' through the outbox; a refusal is kept (submitRefusalKey) until it is read. */
export function submitApplication(applicationId: number | string): Promise<MutationResult> {
  return enqueue({ kind: 'submitApplication', applicationId, draftKey: submitRefusalKey(applicationId) }).then((id) =>
    waitForResult(id),
  );
}
