import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { type ServiceContext } from '../context';
import { firmAbilities } from '../../policies/firms';
import { pageClause, type Paging } from '../../db/paging';
import { type FirmRow, firmSelect, firmCondition } from './firm-record';

/** A page of firms (newest first) with the lawyers across all firms; two queries in all. */
export async function listFirms({ db, actor }: ServiceContext, query: Paging & { search?: string }) {
  const condition = firmCondition(query.search);
  const [items, [counts]] = await Promise.all([
    queryRows<FirmRow>(db, sql`${firmSelect} where ${condition} order by f.id desc ${pageClause(query)}`),
    queryRows<{ total: number; lawyersCount: number }>(
      db,
      sql`select
            (select count(*)::int from firms f left join lateral (
               select u.first_name, u.surname, u.email from users u
               where u.firm_id = f.id and u.role = 'firm' and u.deleted_at is null order by u.id limit 1
             ) adm on true where ${condition}) as total,
            (select count(*)::int from lawyers l join firms lf on lf.id = l.firm_id where l.deleted_at is null and lf.deleted_at is null) as "lawyersCount"`,
    ),
  ]);
  return {
    items: items.map((firm) => ({ ...firm, abilities: firmAbilities(actor, firm) })),
    total: counts?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
    lawyersCount: counts?.lawyersCount ?? 0,
  };
}
