import * as v from 'valibot';
import { api } from '../../../api/client';
import { draftKey } from '../../../offline/draft-keys';
import { registerMutation } from '../../../offline/mutation-registry';
import { outcomeOf } from '../../../offline/send-outcome';
import { applicationChecks, type ApplicationCheck } from '../../../../shared/rules/review';

/**
 * Staff's decisions on the review screen (decision 305): the checks, accept, reject, prepare
 * docusign, notify client and the draft loan amount. Each goes through the outbox with its
 * Idempotency-Key, in the application's scope (so checks ticked offline reach the server before
 * the accept made after them), and is sent once. None has a form draft; a refused one is kept
 * under its key like a refused draft, so it counts in 'Needs your attention' and the page says why.
 */

export type ReviewCheck = ApplicationCheck;

export const reviewDecisions = ['accept', 'reject', 'prepareEnvelope', 'notifyClient'] as const;
export type ReviewDecision = (typeof reviewDecisions)[number];

export const reviewCheckKey = (applicationId: number, check: ReviewCheck) => draftKey('application-check', applicationId, check);
export const reviewDecisionKey = (applicationId: number) => draftKey('application-decision', applicationId);
export const draftLoanAmountKey = (applicationId: number) => draftKey('application-loan-amount', applicationId);

const applicationId = v.pipe(v.number(), v.integer());

const checkPayload = v.object({ applicationId, check: v.picklist(applicationChecks), status: v.boolean() });
const decisionPayload = v.object({ applicationId, decision: v.picklist(reviewDecisions) });
const amountPayload = v.object({ applicationId, amount: v.number() });

export type ReviewCheckPayload = v.InferOutput<typeof checkPayload>;
export type ReviewDecisionPayload = v.InferOutput<typeof decisionPayload>;
export type DraftLoanAmountPayload = v.InferOutput<typeof amountPayload>;

declare module '../../../offline/mutation-registry' {
  interface MutationKinds {
    reviewCheck: ReviewCheckPayload;
    reviewDecision: ReviewDecisionPayload;
    draftLoanAmount: DraftLoanAmountPayload;
  }
}

const scope = ({ applicationId: id }: { applicationId: number }) => String(id);

export const reviewCheckMutation = registerMutation({
  kind: 'reviewCheck',
  payload: checkPayload,
  scope,
  send: async (body, ctx) =>
    outcomeOf(await api.POST('/applications/checks', { body, headers: { 'Idempotency-Key': ctx.idempotencyKey } })),
  draftValue: ({ check, status }) => ({ value: { check, status }, baseVersion: 0 }),
});

async function sendDecision({ applicationId: id, decision }: ReviewDecisionPayload, key: string) {
  const headers = { 'Idempotency-Key': key };
  switch (decision) {
    case 'accept':
    case 'reject':
      return api.POST('/applications/state/update', {
        body: { applicationId: id, state: decision === 'accept' ? 'providerAccepted' : 'providerRejected' },
        headers,
      });
    case 'prepareEnvelope':
      return api.POST('/docusign/init', { body: { applicationId: id, state: 'esignPrepared' }, headers });
    case 'notifyClient':
      return api.POST('/docusign/notify', { body: { applicationId: id }, headers });
  }
}

export const reviewDecisionMutation = registerMutation({
  kind: 'reviewDecision',
  payload: decisionPayload,
  scope,
  send: async (payload, ctx) => outcomeOf(await sendDecision(payload, ctx.idempotencyKey)),
  draftValue: ({ decision }) => ({ value: { decision }, baseVersion: 0 }),
});

export const draftLoanAmountMutation = registerMutation({
  kind: 'draftLoanAmount',
  payload: amountPayload,
  scope,
  // No loanId: the amount of an application not signed yet (decision 240).
  send: async ({ applicationId: id, amount }, ctx) =>
    outcomeOf(
      await api.POST('/loans/update', {
        body: { applicationId: id, amount },
        headers: { 'Idempotency-Key': ctx.idempotencyKey },
      }),
    ),
  draftValue: ({ amount }) => ({ value: { amount }, baseVersion: 0 }),
});
