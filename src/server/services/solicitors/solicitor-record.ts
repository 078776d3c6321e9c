import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/connection';
import { solicitors } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { activeCase } from '../../db/active-case';
import { searchPattern } from '../../db/like';

export interface SolicitorRow {
  id: number;
  name: string;
  address: Record<string, string>;
  contactNumber: string;
  email: string;
  fee: number;
  deliveryMethod: string;
  state: 'active' | 'inactive';
  casesAmount: number;
}
/**
 * Active cases that name the solicitor (alias s) in their independent-advice step
 * (application_steps.data->>'solicitorId'), counted through the partial expression index on it.
 */
export const casesOf = (s: string) => {
  const alias = sql.raw(s);
  return sql`select 1 from application_steps st join applications a on a.id = st.application_id
    where st.step = 'independent' and (st.data->>'solicitorId') = ${alias}.id::text and ${activeCase('a')}`;
};
export const solicitorColumns = sql`s.id, s.name, s.address, s.contact_number as "contactNumber", s.email, s.fee_pence::float8 / 100 as fee,
  s.delivery_method as "deliveryMethod", case when s.deleted_at is null then 'active' else 'inactive' end as state`;
export function solicitorCondition(search: string | undefined): SQL {
  const pattern = searchPattern(search);
  return pattern
    ? sql`s.deleted_at is null and (s.name ilike ${pattern} or s.email ilike ${pattern} or s.contact_number ilike ${pattern} or s.address::text ilike ${pattern})`
    : sql`s.deleted_at is null`;
}

export const toPence = (pounds: number) => Math.round(pounds * 100);

/** Refuses an email another live solicitor already has ('This address has already been used'). */
export async function assertEmailFree(db: Database, email: string, exceptId?: number) {
  const [taken] = await queryRows<{ id: number }>(
    db,
    sql`select id from solicitors where lower(email) = ${email} and deleted_at is null ${exceptId ? sql`and id <> ${exceptId}` : sql``} limit 1`,
  );
  if (taken) throw AppError.validation({ email: 'addressUsed' });
}

/** The live solicitor row locked for a change; 404 otherwise. */
export async function lockSolicitor(db: Database, id: number) {
  const [row] = await db
    .select()
    .from(solicitors)
    .where(and(eq(solicitors.id, id), isNull(solicitors.deletedAt)))
    .for('update');
  if (!row) throw AppError.notFound();
  return row;
}
