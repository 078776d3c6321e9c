import type { SessionUser } from '../auth/sessions';
import { isStaff } from '../../shared/rules/permissions';
import type { LoanStatus } from '../../shared/rules/statuses';
import {
  allowedLoanTransitions,
  drawdownRequestHold,
  drawdownRequestRoles,
  loanIsOpen,
  loanTransitions,
  roleMayTransition,
  transitionAllowedFrom,
} from '../../shared/rules/transitions';

type Actor = Pick<SessionUser, 'role' | 'lawyerId' | 'customerId'>;

/**
 * Loans are seen by whoever sees their application (a lawyer their own, a firm admin their firm's,
 * a client their own, staff all): the applications' scope over the loan's application is the one
 * read rule, so a loan and its case can never disagree about who sees them.
 */
export { scope } from './applications';

/** The facts about a loan its rules read. */
export interface LoanFacts {
  status: LoanStatus;
  lawyerId: number;
  clientId: number;
  creditAvailablePence: number;
  /** A variation waits for the client's signature with an envelope they may sign (decision 507). */
  variationToSign: boolean;
}

export type LoanAction = 'requestDrawdown' | 'requestBalance' | 'updateAmount' | 'signVariation' | { changeStateTo: LoanStatus };

/** The loan's own lawyer or client (staff stand for the provider and act on every loan). */
function isParty(actor: Actor, loan: Pick<LoanFacts, 'lawyerId' | 'clientId'>): boolean {
  if (actor.role === 'lawyer') return actor.lawyerId === loan.lawyerId;
  if (actor.role === 'customer') return actor.customerId === loan.clientId;
  return false;
}

/**
 * Who may ever do this to this loan, whatever its status (403 otherwise): the loan's lawyer requests
 * drawdowns and the balance; staff change the amount; a status change by the transitions table's
 * roles, the client only on their own loan. Whether the loan's status allows it now is `isAllowedNow`
 * (409 otherwise).
 */
export function can(actor: Actor, action: LoanAction, loan: Pick<LoanFacts, 'lawyerId' | 'clientId'>): boolean {
  if (action === 'requestDrawdown') return drawdownRequestRoles.includes(actor.role) && isParty(actor, loan);
  if (action === 'requestBalance') return actor.role === 'lawyer' && isParty(actor, loan);
  if (action === 'updateAmount') return isStaff(actor.role);
  // The client signs only their own loan's variation; nobody signs for them (docs/decisions.md, 510).
  if (action === 'signVariation') return actor.role === 'customer' && isParty(actor, loan);
  return roleMayTransition(loanTransitions, actor.role, action.changeStateTo) && (isStaff(actor.role) || isParty(actor, loan));
}

/**
 * Whether a variation of the loan may still be signed: while it is open or blocked (a block stops
 * money leaving, not a signature); a paid or closed loan's pending variation is withdrawn (decision 511).
 */
export function loanMayTakeVariation(status: LoanStatus): boolean {
  return status === 'open' || status === 'blocked';
}

/** Whether the loan's status (and credit) allows the action now, for a caller who `can`. */
export function isAllowedNow(action: LoanAction, loan: LoanFacts): boolean {
  if (action === 'requestDrawdown') return drawdownRequestHold(loan.status, loan.creditAvailablePence) === null;
  if (action === 'requestBalance') return loan.status !== 'closed';
  if (action === 'updateAmount') return loanIsOpen(loan.status);
  if (action === 'signVariation') return loanMayTakeVariation(loan.status) && loan.variationToSign;
  return transitionAllowedFrom(loanTransitions, loan.status, action.changeStateTo);
}

/** What the caller may do with the loan now: the record's `abilities`, from the checks its writes make. */
export function loanAbilities(actor: Actor, loan: LoanFacts) {
  const may = (action: LoanAction) => can(actor, action, loan) && isAllowedNow(action, loan);
  return {
    transitions: allowedLoanTransitions(actor.role, loan.status).filter((to) => may({ changeStateTo: to })),
    requestDrawdown: may('requestDrawdown'),
    requestBalance: may('requestBalance'),
    updateAmount: may('updateAmount'),
    signVariation: may('signVariation'),
  };
}
