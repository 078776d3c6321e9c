import type { SessionUser } from '../auth/sessions';
import { isStaff } from '../../shared/rules/permissions';

/**
 * Who may see a firm: the provider's staff, and the firm's own admin (role firm). Anyone else is
 * answered 404, as if the firm did not exist (docs/decisions.md: order of refusals). Changes are
 * staff's only, by the contract's permission.
 */
export function can(actor: Pick<SessionUser, 'role' | 'firmId'>, _action: 'read', firm: { id: number }): boolean {
  return isStaff(actor.role) || (actor.role === 'firm' && actor.firmId === firm.id);
}

/**
 * What the caller may do with a firm they see: staff change it, and delete it while none of its
 * lawyers has an active case (the delete's own rule: offering it otherwise would lead nowhere,
 * docs/decisions.md 457); its own admin only reads it.
 */
export function firmAbilities(actor: Pick<SessionUser, 'role'>, firm: { casesAmount: number }) {
  const manage = isStaff(actor.role);
  return { edit: manage, delete: manage && firm.casesAmount === 0 };
}
