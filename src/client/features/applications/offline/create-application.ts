import * as v from 'valibot';
import { api } from '../../../api/client';
import type { components } from '../../../../shared/api/schema';
import { mapLocalId } from '../../../offline/local-ids';
import { registerMutation } from '../../../offline/mutation-registry';
import { outcomeOf } from '../../../offline/send-outcome';

type ClientDetails = components['schemas']['ClientDetails'];

const payload = v.object({
  /** The `local-<uuid>` the wizard used until now: the saves queued for it wait on it. */
  localId: v.string(),
  lawyerId: v.optional(v.number()),
  /** The client details (a stored one is checked by the server when sent). */
  personal: v.custom<ClientDetails>((value) => typeof value === 'object' && value !== null),
});
export type CreateApplicationPayload = v.InferOutput<typeof payload>;

declare module '../../../offline/mutation-registry' {
  interface MutationKinds {
    createApplication: CreateApplicationPayload;
  }
}

export const createApplicationMutation = registerMutation({
  kind: 'createApplication',
  payload,
  scope: ({ localId }) => localId,
  send: async ({ lawyerId, personal }, { idempotencyKey }) => {
    const body = { ...(lawyerId === undefined ? {} : { lawyerId }), journeyData: { personal: personal as ClientDetails } };
    return outcomeOf(await api.POST('/applications/create', { body, headers: { 'Idempotency-Key': idempotencyKey } }));
  },
  onDone: async ({ localId }, body, { userId }) => {
    const serverId = (body as { id?: unknown } | undefined)?.id;
    // Its drafts, queued writes and files follow the real id.
    if (typeof serverId === 'number') await mapLocalId(userId, localId, serverId);
  },
  // The create saves the client details: the version of that step it made.
  versionMade: (body) => {
    const version = (body as { journeyVersions?: { personal?: unknown } } | undefined)?.journeyVersions?.personal;
    return typeof version === 'number' ? version : undefined;
  },
  draftValue: ({ personal }) => ({ value: personal, baseVersion: 0 }),
});
