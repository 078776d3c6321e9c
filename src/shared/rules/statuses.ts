/**
 * Application, loan and drawdown statuses with the labels the spec shows.
 * The spec's `{product}` is `provider` (docs/decisions.md, 032). Every screen, email and PDF that
 * names a status takes its words from these tables, never the code itself.
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
  // The spec's "{product}Approved" / "{product}Denied", read as words like "{product} accepted"
  // (docs/decisions.md 445): a label never shows a code.
  providerApproved: 'provider approved',
  providerDenied: 'provider denied',
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

// ── Administration: what counts as an active case ────────────────────────────────────────
/**
 * Application statuses of a case that is still running: everything from the first step
 * ('incomplete') through signing ('customerAccepted') and the statuses after it, except the
 * three that end a case (providerRejected, providerDenied, customerRejected). A signed case
 * stays active while its loan runs; it ends once the loan is settled (endedLoanStatuses).
 * The one definition used by firms, lawyers, solicitors and clients (docs/decisions.md).
 */
export const activeCaseStatuses = [
  'incomplete',
  'created',
  'submitted',
  'providerAccepted',
  'providerApproved',
  'esignPrepared',
  'esignComplete',
  'customerNotified',
  'customerAccepted',
  'customerApproved',
  'approved',
] as const satisfies readonly ApplicationStatus[];

/** A case whose loan is in one of these is over, whatever the application's status says. */
export const endedLoanStatuses = ['paid', 'closed'] as const satisfies readonly LoanStatus[];

/** Drawdowns that use up a loan's credit: every one not refused by the provider or the client. */
export const creditUsingDrawdownStatuses = [
  'requested',
  'providerApproved',
  'customerApproved',
  'paid',
] as const satisfies readonly DrawdownStatus[];
