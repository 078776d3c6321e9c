import type { SessionUser } from '../auth/sessions';
import { isStaff } from '../../shared/rules/permissions';

/**
 * Which lawyers a caller manages: staff every firm's ('all'), a firm admin only their own firm's
 * (its id), anyone else none. A lawyer outside the scope is answered 404.
 */
export type LawyerScope = 'all' | 'none' | { firmId: number };

export function lawyerScope(user: SessionUser): LawyerScope {
  if (isStaff(user.role)) return 'all';
  if (user.role === 'firm' && user.firmId !== null) return { firmId: user.firmId };
  return 'none';
}

export function inLawyerScope(scope: LawyerScope, firmId: number): boolean {
  return scope === 'all' || (scope !== 'none' && scope.firmId === firmId);
}
