import * as v from 'valibot';
import type { Journey, JourneyStep } from '../../../shared/journey/steps';
import { enqueue, waitForResult, type MutationResult } from '../../offline/outbox';

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
      return body.success ? { status: 'done', data: body.output.data as Journey, version: body.output.version } : { status: 'done', data: {}, version: 0 };
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
  const id = await enqueue({ kind: 'saveStep', ...input });
  return fromResult(await waitForResult(id));
}

export type SubmitOutcome =
  | { status: 'done' }
  | { status: 'queued' }
  | { status: 'rejected'; fields: Record<string, string>; error: string };

export async function submitApplication(applicationId: number | string): Promise<SubmitOutcome> {
  const id = await enqueue({ kind: 'submitApplication', applicationId });
  const result = await waitForResult(id);
  if (result.status === 'done') return { status: 'done' };
  if (result.status === 'queued') return result;
  if (result.status === 'rejected') return result;
  return { status: 'rejected', fields: {}, error: 'conflict' };
}
