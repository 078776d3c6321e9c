import { sql, type SQL } from 'drizzle-orm';
import type { SessionUser } from '../auth/sessions';
import { isStaff } from '../../shared/rules/permissions';

/**
 * Which applications (and so which clients) a caller reaches, as SQL over an applications row
 * (alias `a`) joined to its lawyer (alias `l`): staff every one, a firm admin those of their
 * firm's lawyers, a lawyer their own; anyone else none.
 */
export function clientApplicationScope(user: SessionUser, a = 'a', l = 'l'): SQL {
  if (isStaff(user.role)) return sql`true`;
  if (user.role === 'firm' && user.firmId !== null) return sql`${sql.raw(l)}.firm_id = ${user.firmId}`;
  if (user.role === 'lawyer' && user.lawyerId !== null) return sql`${sql.raw(a)}.lawyer_id = ${user.lawyerId}`;
  return sql`false`;
}
