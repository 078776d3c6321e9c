import { eq, sql, type SQL } from 'drizzle-orm';
import type { SessionUser } from '../auth/sessions';
import { lawyers } from '../db/schema';
import { isStaff } from '../../shared/rules/permissions';

type Actor = Pick<SessionUser, 'role' | 'firmId'>;

/**
 * Which lawyers a caller manages, as a condition over `lawyers`: staff every firm's (undefined: no
 * restriction), a firm admin only their own firm's, anyone else none. A lawyer outside it is 404.
 */
export function scope(actor: Actor): SQL | undefined {
  if (isStaff(actor.role)) return undefined;
  if (actor.role === 'firm' && actor.firmId !== null) return eq(lawyers.firmId, actor.firmId);
  return sql`false`;
}

/** May the caller add, change or delete a lawyer of this firm (the same reach as `scope`)? */
export function can(actor: Actor, _action: 'manage', lawyer: { firmId: number }): boolean {
  return isStaff(actor.role) || (actor.role === 'firm' && actor.firmId === lawyer.firmId);
}

/**
 * What the caller may do with a lawyer they see: change it within their reach (`can`), and delete
 * it while it has no active case (docs/decisions.md 457).
 */
export function lawyerAbilities(actor: Actor, lawyer: { firmId: number; casesAmount: number }) {
  const manage = can(actor, 'manage', lawyer);
  return { edit: manage, delete: manage && lawyer.casesAmount === 0 };
}
