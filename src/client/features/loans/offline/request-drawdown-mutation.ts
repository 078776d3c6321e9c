import * as v from 'valibot';
import { api } from '../../../api/client';
import { draftKey } from '../../../offline/draft-keys';
import { registerMutation } from '../../../offline/mutation-registry';
import { outcomeOf } from '../../../offline/send-outcome';
import { fromWire, type DrawdownRequest } from '../drawdown-request/request-values';

/** The draft of a loan's drawdown request (one per loan and user). */
export const REQUEST_DRAFT_KIND = 'drawdown-request';
export const requestDraftKey = (loanId: number) => draftKey(REQUEST_DRAFT_KIND, loanId);

/**
 * The stored request is checked loosely (an object with the loan's application) when read back;
 * the server checks every field again and answers with codes the form shows.
 */
const payload = v.object({
  loanId: v.pipe(v.number(), v.integer()),
  request: v.custom<DrawdownRequest>(
    (value) =>
      typeof value === 'object' && value !== null && typeof (value as { applicationId?: unknown }).applicationId === 'number',
    'Invalid drawdown request',
  ),
});
export type RequestDrawdownPayload = v.InferOutput<typeof payload>;

declare module '../../../offline/mutation-registry' {
  interface MutationKinds {
    requestDrawdown: RequestDrawdownPayload;
  }
}

/**
 * 'request drawdown', made in court with no signal as often as not: kept in the outbox and sent
 * once with its Idempotency-Key (a retry after a lost answer gets the first answer, never a second
 * drawdown). One loan's writes go in order: a block queued after a request waits for it.
 */
export const requestDrawdownMutation = registerMutation({
  kind: 'requestDrawdown',
  payload,
  scope: ({ loanId }) => `loan:${loanId}`,
  send: async ({ request }, ctx) =>
    outcomeOf(await api.POST('/drawdowns', { body: request, headers: { 'Idempotency-Key': ctx.idempotencyKey } })),
  draftValue: ({ request }) => ({ value: fromWire(request), baseVersion: 0 }),
});
