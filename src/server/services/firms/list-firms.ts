import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { type ServiceContext } from '../context';
import { firmAbilities } from '../../policies/firms';
import { pageClause, pageWithFigures, type Paging } from '../../db/paging';
import { type FirmRow, firmSelect, firmCondition } from './firm-record';

/** A page of firms (newest first), their total and the lawyers across all firms: one statement (db/paging.ts). */
export async function listFirms({ db, actor }: ServiceContext, query: Paging & { search?: string }) {
  const condition = firmCondition(query.search);
  // The lawyers' count is of every firm, so an empty page does not tell it (no `whenEmpty`).
  const { rows, figures } = await pageWithFigures<FirmRow, { total: number; lawyersCount: number }>(
    db,
    query,
    {
      statement: sql`select
            (select count(*)::int from firms f left join lateral (
               select u.first_name, u.surname, u.email from users u
               where u.firm_id = f.id and u.role = 'firm' and u.deleted_at is null order by u.id limit 1
             ) adm on true where ${condition}) as total,
            (select count(*)::int from lawyers l join firms lf on lf.id = l.firm_id where l.deleted_at is null and lf.deleted_at is null) as "lawyersCount"`,
    },
    (figuresColumn) =>
      queryRows(
        db,
        sql`select page.*, ${figuresColumn} as figures
            from (${firmSelect} where ${condition} order by f.id desc ${pageClause(query)}) page order by page.id desc`,
      ),
  );
  return {
    items: rows.map((firm) => ({ ...firm, abilities: firmAbilities(actor, firm) })),
    total: figures.total,
    page: query.page,
    pageSize: query.pageSize,
    lawyersCount: figures.lawyersCount,
  };
}
