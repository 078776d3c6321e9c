import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/connection';
import { lawyers, users } from '../../db/schema';
import { type SessionUser } from '../../auth/sessions';
import { AppError } from '../../errors/app-error';
import { assertCan } from '../../policies/assert-can';
import * as lawyerPolicy from '../../policies/lawyers';
import { activeCase } from '../../db/active-case';
import { searchPattern } from '../../db/like';

export interface LawyerFilter {
  search?: string;
  firmId?: number;
}
export interface LawyerRow {
  id: number;
  firstName: string;
  surname: string;
  login: string;
  firmId: number;
  firmName: string;
  state: 'invited' | 'active' | 'disabled';
  casesAmount: number;
}
/** The wire's Lawyer. */
export function toLawyer(row: LawyerRow, actor: SessionUser) {
  const { firmName, ...rest } = row;
  return { ...rest, firm: { id: row.firmId, firmName }, abilities: lawyerPolicy.lawyerAbilities(actor, row) };
}
/** Live lawyers the scope reaches, filtered; aliases: u (users), f (firms). */
export function lawyerCondition(user: SessionUser, filter: LawyerFilter): SQL {
  const pattern = searchPattern(filter.search);
  const parts: SQL[] = [sql`lawyers.deleted_at is null`, lawyerPolicy.scope(user) ?? sql`true`];
  if (filter.firmId !== undefined) parts.push(sql`lawyers.firm_id = ${filter.firmId}`);
  if (pattern)
    parts.push(
      sql`(u.first_name ilike ${pattern} or u.surname ilike ${pattern} or u.email ilike ${pattern} or (u.first_name || ' ' || u.surname) ilike ${pattern} or f.name ilike ${pattern})`,
    );
  return sql.join(parts, sql` and `);
}

export const lawyerColumns = sql`lawyers.id, u.first_name as "firstName", u.surname, u.email as login, lawyers.firm_id as "firmId", f.name as "firmName", u.status as state,
  (select count(*)::int from applications a where a.lawyer_id = lawyers.id and ${activeCase('a')}) as "casesAmount"`;
export const lawyerFrom = sql`from lawyers join users u on u.id = lawyers.user_id join firms f on f.id = lawyers.firm_id`;

export async function findLawyer(db: Database, user: SessionUser, id: number) {
  const [row] = await queryRows<LawyerRow>(
    db,
    sql`select ${lawyerColumns} ${lawyerFrom} where lawyers.id = ${id} and ${lawyerCondition(user, {})}`,
  );
  return row ? toLawyer(row, user) : undefined;
}

/** The lawyer row locked for a change, if the caller manages it. */
export async function lockLawyer(db: Database, user: SessionUser, id: number) {
  const [row] = await db
    .select({
      id: lawyers.id,
      userId: lawyers.userId,
      firmId: lawyers.firmId,
      firstName: users.firstName,
      surname: users.surname,
    })
    .from(lawyers)
    .innerJoin(users, eq(users.id, lawyers.userId))
    .where(and(eq(lawyers.id, id), isNull(lawyers.deletedAt)))
    .for('update', { of: lawyers });
  if (!row) throw AppError.notFound();
  assertCan(lawyerPolicy.can(user, 'manage', row), 'notFound');
  return row;
}

/** True when any of these lawyers has an active case. */
export async function lawyersHaveActiveCases(db: Database, lawyerIds: number[]): Promise<boolean> {
  if (lawyerIds.length === 0) return false;
  const [row] = await queryRows<{ active: boolean }>(
    db,
    sql`select exists (select 1 from applications a where a.lawyer_id in (${sql.join(
      lawyerIds.map((id) => sql`${id}`),
      sql`, `,
    )}) and ${activeCase('a')}) as active`,
  );
  return row?.active === true;
}
