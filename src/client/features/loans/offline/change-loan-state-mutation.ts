import * as v from 'valibot';
import { api } from '../../../api/client';
import { loanStatuses } from '../../../../shared/rules/statuses';
import { draftKey } from '../../../offline/draft-keys';
import { registerMutation } from '../../../offline/mutation-registry';
import { outcomeOf } from '../../../offline/send-outcome';

/**
 * A decision about a loan (block, unblock, set paid, close) has no form, but a refused one is kept
 * under this key like a refused draft: it counts in 'Needs your attention' and the loan page says
 * why (someone else acted first: 'This was changed by someone else meanwhile.').
 */
export const loanStateKey = (loanId: number) => draftKey('loan-state', loanId);

const payload = v.object({ loanId: v.pipe(v.number(), v.integer()), state: v.picklist(loanStatuses) });
export type ChangeLoanStatePayload = v.InferOutput<typeof payload>;

declare module '../../../offline/mutation-registry' {
  interface MutationKinds {
    changeLoanState: ChangeLoanStatePayload;
  }
}

export const changeLoanStateMutation = registerMutation({
  kind: 'changeLoanState',
  payload,
  scope: ({ loanId }) => `loan:${loanId}`,
  send: async ({ loanId, state }, ctx) =>
    outcomeOf(
      await api.POST('/loans/{id}/state', {
        params: { path: { id: loanId } },
        body: { state },
        headers: { 'Idempotency-Key': ctx.idempotencyKey },
      }),
    ),
  draftValue: ({ state }) => ({ value: { state }, baseVersion: 0 }),
});
