/**
 * Application, loan and drawdown statuses with the labels the spec shows.
 * The spec's `{product}` is `provider` (issue 2, decisions already taken).
 */
export const applicationStatuses = [
  'incomplete',
  'created',
  'submitted',
  'providerAccepted',
  'providerRejected',
  'providerApproved',
  'providerDenied',
  'esignPrepared',
  'esignComplete',
  'customerNotified',
  'customerAccepted',
  'customerApproved',
  'customerRejected',
  'approved',
] as const;
export type ApplicationStatus = (typeof applicationStatuses)[number];

export const applicationStatusLabels: Record<ApplicationStatus, string> = {
  incomplete: 'started',
  created: 'incomplete',
  submitted: 'submitted',
  providerAccepted: 'provider accepted',
  providerRejected: 'provider rejected',
  providerApproved: 'providerApproved',
  providerDenied: 'providerDenied',
  esignPrepared: 'provider accepted',
  esignComplete: 'provider accepted',
  customerNotified: 'provider accepted',
  customerAccepted: 'client accepted',
  customerApproved: 'client approved',
  customerRejected: 'client rejected',
  approved: 'approved',
};

export const loanStatuses = ['open', 'blocked', 'paid', 'closed'] as const;
export type LoanStatus = (typeof loanStatuses)[number];

export const drawdownStatuses = [
  'requested',
  'providerApproved',
  'providerRejected',
  'customerApproved',
  'customerRejected',
  'paid',
] as const;
export type DrawdownStatus = (typeof drawdownStatuses)[number];

export const drawdownStatusLabels: Record<DrawdownStatus, string> = {
  requested: 'requested',
  providerApproved: 'pending client approval',
  providerRejected: 'provider rejected',
  customerApproved: 'client accepted',
  customerRejected: 'client rejected',
  paid: 'paid',
};
