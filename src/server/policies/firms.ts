import type { SessionUser } from '../auth/sessions';
import { isStaff } from '../../shared/rules/permissions';

/**
 * Who may see a firm: the provider's staff, and the firm's own admin (role firm). Anyone else is
 * answered 404, as if the firm did not exist (docs/decisions.md: order of refusals).
 */
export function canReadFirm(user: SessionUser, firmId: number): boolean {
  return isStaff(user.role) || (user.role === 'firm' && user.firmId === firmId);
}
