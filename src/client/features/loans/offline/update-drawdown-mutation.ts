import * as v from 'valibot';
import { api } from '../../../api/client';
import { draftKey } from '../../../offline/draft-keys';
import { registerMutation } from '../../../offline/mutation-registry';
import { outcomeOf } from '../../../offline/send-outcome';
import { fromWire, type DrawdownRequest } from '../drawdown-request/request-values';

/** The draft of the lawyer's changes to a requested drawdown (one per drawdown and user). */
export const EDIT_DRAFT_KIND = 'drawdown-edit';
export const editDraftKey = (drawdownId: number) => draftKey(EDIT_DRAFT_KIND, drawdownId);

/** Checked loosely when read back, as a new request is; the server checks every field again. */
const payload = v.object({
  drawdownId: v.pipe(v.number(), v.integer()),
  loanId: v.pipe(v.number(), v.integer()),
  request: v.custom<DrawdownRequest>(
    (value) =>
      typeof value === 'object' && value !== null && typeof (value as { applicationId?: unknown }).applicationId === 'number',
    'Invalid drawdown request',
  ),
});
export type UpdateDrawdownPayload = v.InferOutput<typeof payload>;

declare module '../../../offline/mutation-registry' {
  interface MutationKinds {
    updateDrawdown: UpdateDrawdownPayload;
  }
}

/**
 * The lawyer's change of a requested drawdown (PUT /drawdowns/{id}), made offline as often as the
 * request itself: kept in the outbox and sent once with its Idempotency-Key. It goes in its loan's
 * lane, after a request or a status change queued before it, since each reads the loan's credit.
 */
export const updateDrawdownMutation = registerMutation({
  kind: 'updateDrawdown',
  payload,
  scope: ({ loanId }) => `loan:${loanId}`,
  send: async ({ drawdownId, request }, ctx) =>
    outcomeOf(
      await api.PUT('/drawdowns/{id}', {
        params: { path: { id: drawdownId } },
        body: request,
        headers: { 'Idempotency-Key': ctx.idempotencyKey },
      }),
    ),
  draftValue: ({ request }) => ({ value: fromWire(request), baseVersion: 0 }),
});
