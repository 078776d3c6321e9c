import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { lawyers } from '../db/schema';

/**
 * A record of one of the firm's lawyers: its lawyer column is one of the firm's lawyers' ids, read
 * by that column's index. The lawyers are found as a one-row array the database evaluates once,
 * not joined: a join let the planner see how many lawyers the firm has, so each firm, and each
 * call, got a plan of its own, and a prepared list was planned again at every call (about 0.9 ms
 * of a firm's applications list's 2.2 ms on the embedded database; docs/decisions.md 727). As an
 * array the plan is the same for every firm, and the database keeps it. The one reading of "a
 * firm's": the scopes and the firm filters of applications, loans and drawdowns use it.
 */
export function ofFirmLawyers(lawyerColumn: PgColumn, firmId: number): SQL {
  return sql`${lawyerColumn} = any(array(select ${lawyers.id} from ${lawyers} where ${lawyers.firmId} = ${firmId}))`;
}
