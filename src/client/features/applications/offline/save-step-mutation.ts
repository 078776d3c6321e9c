import * as v from 'valibot';
import type { components } from '../../../../shared/api/schema';
import { journeySteps } from '../../../../shared/journey/steps';
import { registerMutation } from '../../../offline/mutation-registry';
import { outcomeOf } from '../../../offline/send-outcome';
import { readMapping } from '../../../offline/local-ids';
import { readStoredFile } from '../../../offline/stored-files';
import { isLocalUploadId } from './application-ids';

const payload = v.object({
  applicationId: v.union([v.pipe(v.number(), v.integer()), v.string()]),
  step: v.picklist(journeySteps),
  baseVersion: v.number(),
  data: v.unknown(),
});
export type SaveStepPayload = v.InferOutput<typeof payload>;

declare module '../../../offline/mutation-registry' {
  interface MutationKinds {
    /** `data`: the step's journey data; the asset step's `documents` may name `upload-<uuid>` files. */
    saveStep: SaveStepPayload;
  }
}

class UploadNotDone extends Error {}

/**
 * The asset step's documents: files already uploaded are ids; a file chosen offline is its
 * `upload-<uuid>` until its upload is done. One that failed or was removed is left out (its entry
 * in the uploads list says why); one still waiting holds the save back.
 */
async function resolveDocuments(userId: number, documents: unknown): Promise<unknown> {
  if (!Array.isArray(documents)) return documents;
  const out: unknown[] = [];
  for (const entry of documents) {
    if (!isLocalUploadId(entry)) {
      out.push(entry);
      continue;
    }
    const mapped = await readMapping(userId, entry);
    if (mapped) {
      out.push(mapped.serverId);
      continue;
    }
    const upload = await readStoredFile(userId, entry);
    if (upload && upload.status !== 'failed') throw new UploadNotDone();
  }
  return [...new Set(out)];
}

export const saveStepMutation = registerMutation({
  kind: 'saveStep',
  payload,
  scope: ({ applicationId }) => String(applicationId),
  batched: true,
  send: async (sent, ctx) => {
    const applicationId = await ctx.resolveId(sent.applicationId);
    let data = sent.data;
    if (sent.step === 'asset' && data && typeof data === 'object' && 'documents' in data) {
      try {
        data = { ...data, documents: await resolveDocuments(ctx.userId, (data as { documents?: unknown }).documents) };
      } catch (error) {
        if (error instanceof UploadNotDone) return { type: 'blocked' };
        throw error;
      }
    }
    // Sent on the version the user's own earlier save of this step made, if that replaced the base.
    const baseVersion = await ctx.ownVersion(`${applicationId}:${sent.step}`, sent.baseVersion);
    const body = { applicationId, baseVersion, journeyData: { [sent.step]: data } as components['schemas']['Journey'] };
    // Through the sync's client: the saves of the sends under way reach the server together (decision 702).
    return outcomeOf(
      await ctx.api.POST('/applications/update/{step}', {
        params: { path: { step: sent.step } },
        body,
        headers: { 'Idempotency-Key': ctx.idempotencyKey },
      }),
    );
  },
  versionMade: (body) => {
    const version = (body as { version?: unknown } | undefined)?.version;
    return typeof version === 'number' ? version : undefined;
  },
  draftValue: ({ data, baseVersion }) => ({ value: data, baseVersion }),
});
