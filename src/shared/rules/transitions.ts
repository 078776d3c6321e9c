import type { Role } from './permissions';
import { applicationStatuses, type ApplicationStatus, type DrawdownStatus, type LoanStatus } from './statuses';

/**
 * Status transitions of applications, loans and drawdowns, read by the server (may this caller make
 * this change now?) and by the screens (which buttons to offer). Each table is keyed by the status
 * moved *to*: from which statuses, and by which roles. Whether the caller is the record's own lawyer
 * or client is the policy's question (`can`), not the table's. The roles where the spec is silent are
 * recorded in the decisions (transition tables).
 */
export interface Transition<S extends string> {
  from: readonly S[];
  roles: readonly Role[];
}
type TransitionTable<S extends string> = Partial<Record<S, Transition<S>>>;

const staff = ['root', 'admin'] as const satisfies readonly Role[];

/** The statuses in which a journey may still be edited (and its Form E documents changed). */
const editableApplicationStatuses = ['incomplete', 'created'] as const satisfies readonly ApplicationStatus[];

export function isEditableStatus(status: string): boolean {
  return (editableApplicationStatuses as readonly string[]).includes(status);
}

/**
 * The application's process (spec applications-and-access section 4). `incomplete` and `created`
 * are where an application starts: no call moves one there (the client's first save moves
 * incomplete → created as a side effect, not as a transition). submitted → providerAccepted |
 * providerRejected (staff's review) → esignPrepared (POST /docusign/init) → customerNotified (POST
 * /docusign/notify) → customerAccepted (signing); the client may leave with customerRejected from
 * the accepted, prepared and notified statuses (docs/decisions.md 270).
 */
export const applicationTransitions = {
  submitted: { from: editableApplicationStatuses, roles: ['root', 'lawyer', 'customer'] },
  providerAccepted: { from: ['submitted'], roles: staff },
  providerRejected: { from: ['submitted'], roles: staff },
  // The spec lists these four statuses with labels but gives them no step of its process: no call
  // moves an application there (docs/decisions.md 270). Their rows stay, with no `from`, so they are
  // neither start statuses nor reachable; an application already in one keeps its way out.
  customerApproved: { from: [], roles: ['customer'] },
  providerApproved: { from: [], roles: staff },
  providerDenied: { from: [], roles: staff },
  esignPrepared: { from: ['providerAccepted', 'customerApproved', 'providerApproved'], roles: staff },
  customerNotified: { from: ['esignPrepared'], roles: staff },
  esignComplete: { from: ['customerNotified'], roles: staff },
  customerAccepted: { from: ['customerNotified', 'esignComplete'], roles: ['customer'] },
  customerRejected: {
    from: ['providerAccepted', 'customerApproved', 'providerApproved', 'esignPrepared', 'customerNotified'],
    roles: ['customer'],
  },
  approved: { from: [], roles: staff },
} as const satisfies TransitionTable<ApplicationStatus>;

/**
 * Statuses no call ever moves an application *to* (where an application starts): read from the
 * table, so that it is a different question from "may the journey still be edited", even while
 * both answer `incomplete` and `created`.
 */
export const applicationStartStatuses: readonly ApplicationStatus[] = applicationStatuses.filter(
  (status) => !Object.hasOwn(applicationTransitions, status),
);

/**
 * Loans (spec loans-drawdowns-and-administration section 4): blocked by the provider or the client
 * (their own loan), unblocked by the provider only; paid or closed by the provider once settled.
 */
export const loanTransitions = {
  blocked: { from: ['open'], roles: ['root', 'admin', 'customer'] },
  open: { from: ['blocked'], roles: staff },
  paid: { from: ['open', 'blocked'], roles: staff },
  closed: { from: ['open', 'blocked', 'paid'], roles: staff },
} as const satisfies TransitionTable<LoanStatus>;

/** Drawdowns (spec loans-drawdowns-and-administration section 4, the table of changes). */
export const drawdownTransitions = {
  providerApproved: { from: ['requested'], roles: staff },
  providerRejected: { from: ['requested'], roles: staff },
  customerApproved: { from: ['providerApproved'], roles: ['customer'] },
  customerRejected: { from: ['providerApproved'], roles: ['customer'] },
  paid: { from: ['customerApproved'], roles: staff },
} as const satisfies TransitionTable<DrawdownStatus>;

/**
 * A loan takes new drawdown requests, and its amount may change, only while open: blocked stops
 * new drawdowns until unblocked (spec section 4), and a paid or closed loan is settled.
 */
export function loanIsOpen(status: string): boolean {
  return status === 'open';
}

/**
 * The drawdown moves that send money on its way (approve, the client's approval, paid) wait while
 * the loan is not open: a block is the brake on money leaving. Refusals may be made at any time
 * the table allows (docs/decisions.md: a blocked loan holds its drawdowns).
 */
const drawdownMovesNeedingOpenLoan: readonly DrawdownStatus[] = ['providerApproved', 'customerApproved', 'paid'];

export function drawdownMoveNeedsOpenLoan(to: DrawdownStatus): boolean {
  return drawdownMovesNeedingOpenLoan.includes(to);
}

/** Who may request a new drawdown (it starts as `requested`). */
export const drawdownRequestRoles: readonly Role[] = ['lawyer'];

/**
 * Why a loan takes no new drawdown request now: its status, or every pound of its signed credit
 * drawn (`awaitingSignature` while a variation the client has not signed yet would add more).
 */
export type DrawdownRequestHold = Exclude<LoanStatus, 'open'> | 'noCredit' | 'awaitingSignature';

/**
 * The one answer to "does this loan take a new request now?" (null: it does): open with signed
 * credit left (credit.ts). The server's check and the record's `requestDrawdown` ability read it,
 * and the loan page says which reason holds when its lawyer finds no form (docs/decisions.md (415),
 * 515): with none left, whether a variation waiting for the client's signature would add some.
 */
export function drawdownRequestHold(
  status: LoanStatus,
  creditAvailablePence: number,
  creditAwaitingSignaturePence = 0,
): DrawdownRequestHold | null {
  if (status !== 'open') return status;
  if (creditAvailablePence > 0) return null;
  return creditAwaitingSignaturePence > 0 ? 'awaitingSignature' : 'noCredit';
}

function transitionOf<S extends string>(table: TransitionTable<S>, to: string): Transition<S> | undefined {
  return Object.hasOwn(table, to) ? table[to as S] : undefined;
}

/** May this role ever move a record to `to` (from some status)? */
export function roleMayTransition<S extends string>(table: TransitionTable<S>, role: Role, to: string): boolean {
  return transitionOf(table, to)?.roles.includes(role) ?? false;
}

/** Does the table allow `from` → `to` at all (whoever asks)? */
export function transitionAllowedFrom<S extends string>(table: TransitionTable<S>, from: string, to: string): boolean {
  return (transitionOf(table, to)?.from as readonly string[] | undefined)?.includes(from) ?? false;
}

/** The statuses this role may move a record in `status` to, in the table's order. */
function allowedTransitions<S extends string>(table: TransitionTable<S>, role: Role, status: string): S[] {
  return (Object.keys(table) as S[]).filter(
    (to) => roleMayTransition(table, role, to) && transitionAllowedFrom(table, status, to),
  );
}

export const allowedApplicationTransitions = (role: Role, status: ApplicationStatus): ApplicationStatus[] =>
  allowedTransitions<ApplicationStatus>(applicationTransitions, role, status);
export const allowedLoanTransitions = (role: Role, status: LoanStatus): LoanStatus[] =>
  allowedTransitions<LoanStatus>(loanTransitions, role, status);
export const allowedDrawdownTransitions = (role: Role, status: DrawdownStatus): DrawdownStatus[] =>
  allowedTransitions<DrawdownStatus>(drawdownTransitions, role, status);
