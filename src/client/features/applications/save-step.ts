import * as v from 'valibot';
import type { Journey, JourneyStep } from '../../../shared/journey/steps';
import type { components } from '../../../shared/api/schema';
import { enqueue, waitForResult, type MutationResult } from '../../offline/outbox';
import { serverIdOf } from '../../offline/local-ids';
import { isLocalApplicationId } from './offline/application-ids';
import './offline/application-mutations';
import { currentUserId } from '../../session/current-session';
import { hasWaitingCreate } from './pending-creates';

type ClientDetails = components['schemas']['ClientDetails'];

/**
 * 'Save & Continue' through the outbox: the save is on the device first (with its Idempotency-Key),
 * then sent. Online, the screen waits for the answer; offline it moves on and the save goes later.
 */

export type SaveOutcome =
  | { status: 'done'; data: Journey; version: number }
  | { status: 'queued' }
  | { status: 'rejected'; fields: Record<string, string>; error: string }
  | { status: 'conflict'; current: { data: Journey; version: number } };

const savedSchema = v.object({ data: v.record(v.string(), v.unknown()), version: v.number() });

function asJourney(value: unknown): Journey {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Journey) : {};
}

function fromResult(result: MutationResult): SaveOutcome {
  switch (result.status) {
    case 'done': {
      const body = v.safeParse(savedSchema, result.body);
      return body.success
        ? { status: 'done', data: body.output.data as Journey, version: body.output.version }
        : { status: 'done', data: {}, version: 0 };
    }
    case 'queued':
      return result;
    case 'rejected':
      return result;
    case 'conflict':
      return { status: 'conflict', current: { data: asJourney(result.current.data), version: result.current.version } };
  }
}

export interface SaveStepInput {
  applicationId: number | string;
  step: JourneyStep;
  baseVersion: number;
  data: unknown;
  draftKey: string;
}

export async function saveStep(input: SaveStepInput): Promise<SaveOutcome> {
  if (input.step === 'personal' && (await needsNewCreate(input.applicationId))) return createAgain(input);
  const id = await enqueue({ kind: 'saveStep', ...input });
  return fromResult(await waitForResult(id));
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
async function createAgain(input: SaveStepInput): Promise<SaveOutcome> {
  const id = await enqueue({
    kind: 'createApplication',
    localId: String(input.applicationId),
    personal: input.data as ClientDetails,
    draftKey: input.draftKey,
  });
  const result = await waitForResult(id);
  if (result.status === 'done') {
    const created = v.safeParse(createdSchema, result.body);
    return created.success
      ? {
          status: 'done',
          data: { personal: created.output.journey.personal } as Journey,
          version: created.output.journeyVersions.personal ?? 1,
        }
      : { status: 'done', data: {}, version: 1 };
  }
  return fromResult(result);
}

const createdSchema = v.object({
  journey: v.object({ personal: v.optional(v.unknown()) }),
  journeyVersions: v.object({ personal: v.optional(v.number()) }),
});

export type SubmitOutcome =
  { status: 'done' } | { status: 'queued' } | { status: 'rejected'; fields: Record<string, string>; error: string };

export async function submitApplication(applicationId: number | string): Promise<SubmitOutcome> {
  const id = await enqueue({ kind: 'submitApplication', applicationId });
  const result = await waitForResult(id);
  if (result.status === 'done') return { status: 'done' };
  if (result.status === 'queued') return result;
  if (result.status === 'rejected') return result;
  return { status: 'rejected', fields: {}, error: 'conflict' };
}
