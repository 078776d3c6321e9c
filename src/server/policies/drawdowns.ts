import type { SessionUser } from '../auth/sessions';
import { isStaff } from '../../shared/rules/permissions';
import type { DrawdownStatus, LoanStatus } from '../../shared/rules/statuses';
import {
  allowedDrawdownTransitions,
  drawdownMoveNeedsOpenLoan,
  drawdownRequestRoles,
  drawdownTransitions,
  loanIsOpen,
  roleMayTransition,
  transitionAllowedFrom,
} from '../../shared/rules/transitions';

type Actor = Pick<SessionUser, 'id' | 'role' | 'lawyerId' | 'customerId'>;

/** Drawdowns are seen by whoever sees their loan's application (the one read rule of loans). */
export { scope } from './applications';

/** The facts about a drawdown its rules read. */
export interface DrawdownFacts {
  status: DrawdownStatus;
  loanStatus: LoanStatus;
  lawyerId: number;
  clientId: number;
  /** The user who requested it (null on a row from before it was recorded). */
  requestedBy: number | null;
}

export type DrawdownAction = 'edit' | { changeStateTo: DrawdownStatus };

/**
 * Who may ever do this to this drawdown, whatever its status (403 otherwise): the lawyer who
 * requested it changes their request, while it is still their loan's (docs/decisions.md (419)); a
 * status change by the transitions table's roles, the client only on their own loan's drawdowns
 * (each party attests only for itself).
 */
export function can(
  actor: Actor,
  action: DrawdownAction,
  drawdown: Pick<DrawdownFacts, 'lawyerId' | 'clientId' | 'requestedBy'>,
): boolean {
  if (action === 'edit')
    return drawdownRequestRoles.includes(actor.role) && actor.lawyerId === drawdown.lawyerId && actor.id === drawdown.requestedBy;
  if (!roleMayTransition(drawdownTransitions, actor.role, action.changeStateTo)) return false;
  if (isStaff(actor.role)) return true;
  return actor.role === 'customer' && actor.customerId === drawdown.clientId;
}

/**
 * Whether the statuses allow it now, for a caller who `can` (409 otherwise): a request changes
 * while it is requested and its loan open; a move by the table from the drawdown's status, and a
 * move that sends money on its way only while the loan is open.
 */
export function isAllowedNow(action: DrawdownAction, drawdown: Pick<DrawdownFacts, 'status' | 'loanStatus'>): boolean {
  if (action === 'edit') return drawdown.status === 'requested' && loanIsOpen(drawdown.loanStatus);
  const to = action.changeStateTo;
  return (
    transitionAllowedFrom(drawdownTransitions, drawdown.status, to) &&
    (!drawdownMoveNeedsOpenLoan(to) || loanIsOpen(drawdown.loanStatus))
  );
}

/** What the caller may do with the drawdown now: the record's `abilities`. */
export function drawdownAbilities(actor: Actor, drawdown: DrawdownFacts) {
  const may = (action: DrawdownAction) => can(actor, action, drawdown) && isAllowedNow(action, drawdown);
  return {
    transitions: allowedDrawdownTransitions(actor.role, drawdown.status).filter((to) => may({ changeStateTo: to })),
    edit: may('edit'),
  };
}
