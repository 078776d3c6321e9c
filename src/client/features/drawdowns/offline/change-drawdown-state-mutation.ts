import * as v from 'valibot';
import { api } from '../../../api/client';
import { clientDeclarationKeys } from '../../../../shared/rules/declarations';
import { drawdownStatuses } from '../../../../shared/rules/statuses';
import { draftKey } from '../../../offline/draft-keys';
import { registerMutation } from '../../../offline/mutation-registry';
import { outcomeOf } from '../../../offline/send-outcome';

/**
 * A decision about a drawdown (staff approve, reject or pay; the client approves with the five
 * declarations or rejects) has no form of its own, but a refused one is kept under this key like a
 * refused draft: it counts in 'Needs your attention' and the drawdown page says why (someone else
 * acted first: 'This was changed by someone else meanwhile.').
 */
export const drawdownStateKey = (drawdownId: number) => draftKey('drawdown-state', drawdownId);

const clientDeclarations = v.object(
  Object.fromEntries(clientDeclarationKeys.map((key) => [key, v.boolean()])) as Record<
    (typeof clientDeclarationKeys)[number],
    v.BooleanSchema<undefined>
  >,
);

const payload = v.object({
  drawdownId: v.pipe(v.number(), v.integer()),
  state: v.picklist(drawdownStatuses),
  clientDeclarations: v.optional(clientDeclarations),
});
export type ChangeDrawdownStatePayload = v.InferOutput<typeof payload>;

declare module '../../../offline/mutation-registry' {
  interface MutationKinds {
    changeDrawdownState: ChangeDrawdownStatePayload;
  }
}

export const changeDrawdownStateMutation = registerMutation({
  kind: 'changeDrawdownState',
  payload,
  scope: ({ drawdownId }) => `drawdown:${drawdownId}`,
  send: async ({ drawdownId, state, clientDeclarations: declarations }, ctx) =>
    outcomeOf(
      await api.POST('/drawdowns/{id}/state', {
        params: { path: { id: drawdownId } },
        body: { state, ...(declarations ? { clientDeclarations: declarations } : {}) },
        headers: { 'Idempotency-Key': ctx.idempotencyKey },
      }),
    ),
  draftValue: ({ state }) => ({ value: { state }, baseVersion: 0 }),
});
