import * as v from 'valibot';
import { api } from '../../../api/client';
import { aliasesOf } from '../../../offline/local-ids';
import { registerMutation } from '../../../offline/mutation-registry';
import { outcomeOf } from '../../../offline/send-outcome';
import { parseStepDraftKey } from './application-ids';

const payload = v.object({ applicationId: v.union([v.pipe(v.number(), v.integer()), v.string()]) });
export type SubmitApplicationPayload = v.InferOutput<typeof payload>;

declare module '../../../offline/mutation-registry' {
  interface MutationKinds {
    submitApplication: SubmitApplicationPayload;
  }
}

function applicationOf(kind: string, sent: unknown): string | null {
  if (kind !== 'saveStep') return null;
  const ref = (sent as { applicationId?: unknown } | null)?.applicationId;
  return typeof ref === 'number' || typeof ref === 'string' ? String(ref) : null;
}

export const submitApplicationMutation = registerMutation({
  kind: 'submitApplication',
  payload,
  scope: ({ applicationId }) => String(applicationId),
  send: async ({ applicationId }, ctx) => {
    const id = await ctx.resolveId(applicationId);
    return outcomeOf(
      await api.POST('/applications/state/update', {
        body: { applicationId: id, state: 'submitted' },
        headers: { 'Idempotency-Key': ctx.idempotencyKey },
      }),
    );
  },
  /**
   * A submit goes only after every write of its application: it waits while a save of that
   * application is queued after it (typed after submitting offline) or a step of it was refused or is
   * in conflict, so the application is never submitted without what the user is still fixing.
   */
  // A refused submit is kept under submitRefusalKey: what it carried, for the refusal to name.
  draftValue: ({ applicationId }) => ({ value: { applicationId }, baseVersion: 0 }),
  holdWhile: async ({ applicationId }, ctx) => {
    const names = await aliasesOf(ctx.userId, applicationId);
    if (await ctx.queuedAfter((kind, sent) => names.has(applicationOf(kind, sent) ?? ''))) return true;
    const attention = await ctx.draftsNeedingAttention();
    return attention.some((key) => names.has(parseStepDraftKey(key)?.applicationId ?? ''));
  },
});
