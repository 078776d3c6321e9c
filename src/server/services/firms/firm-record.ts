import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/connection';
import { firms } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { activeCase } from '../../db/active-case';
import { searchPattern } from '../../db/like';

export interface FirmRow {
  id: number;
  firmName: string;
  firstName: string;
  surname: string;
  login: string;
  casesAmount: number;
  lawyersCount: number;
}
/**
 * A firm as the wire shows it: its admin (the first live account with role firm) and two counts,
 * each a subquery on an index (lawyers by firm, applications by lawyer), all in one statement.
 * Aliases: f (firms), adm (its admin).
 */
export const firmSelect = sql`select f.id, f.name as "firmName",
    coalesce(adm.first_name, '') as "firstName", coalesce(adm.surname, '') as surname, coalesce(adm.email, '') as login,
    (select count(*)::int from lawyers fl where fl.firm_id = f.id and fl.deleted_at is null) as "lawyersCount",
    (select count(*)::int from applications a join lawyers al on al.id = a.lawyer_id where al.firm_id = f.id and ${activeCase('a')}) as "casesAmount"
  from firms f
  left join lateral (
    select u.first_name, u.surname, u.email from users u
    where u.firm_id = f.id and u.role = 'firm' and u.deleted_at is null order by u.id limit 1
  ) adm on true`;
export function firmCondition(search: string | undefined): SQL {
  const pattern = searchPattern(search);
  return pattern
    ? sql`f.deleted_at is null and (f.name ilike ${pattern} or adm.first_name ilike ${pattern} or adm.surname ilike ${pattern} or adm.email ilike ${pattern})`
    : sql`f.deleted_at is null`;
}

export async function findFirm(db: Database, id: number): Promise<FirmRow | undefined> {
  const [row] = await queryRows<FirmRow>(db, sql`${firmSelect} where f.id = ${id} and f.deleted_at is null`);
  return row;
}

/** The firm row locked for a change; 404 when there is no live firm. */
export async function lockFirm(db: Database, id: number) {
  const [firm] = await db
    .select({ id: firms.id, name: firms.name })
    .from(firms)
    .where(and(eq(firms.id, id), isNull(firms.deletedAt)))
    .for('update');
  if (!firm) throw AppError.notFound();
  return firm;
}
