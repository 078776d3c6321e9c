import type { SessionUser } from '../auth/sessions';
import { isStaff } from '../../shared/rules/permissions';

/**
 * Solicitors (the independent legal advisers) are the provider's list: staff add, change and
 * delete them (the contract's crudSolicitors); everyone else only reads a chosen one's details.
 */
export function can(actor: Pick<SessionUser, 'role'>, _action: 'manage'): boolean {
  return isStaff(actor.role);
}

/**
 * What the caller may do with a solicitor: staff change a live one, and delete it while no active
 * case names it (docs/decisions.md 457).
 */
export function solicitorAbilities(actor: Pick<SessionUser, 'role'>, solicitor: { state: string; casesAmount: number }) {
  const manage = can(actor, 'manage') && solicitor.state !== 'inactive';
  return { edit: manage, delete: manage && solicitor.casesAmount === 0 };
}
