import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { type ServiceContext } from '../context';
import { pageClause, type Paging } from '../../db/paging';
import { type LawyerFilter, type LawyerRow, lawyerColumns, toLawyer, lawyerCondition, lawyerFrom } from './lawyer-record';

/** A page of lawyers, newest first: one query for the page, one for the total. */
export async function listLawyers({ db, actor: user }: ServiceContext, query: Paging & LawyerFilter) {
  const condition = lawyerCondition(user, query);
  const [rows, [count]] = await Promise.all([
    queryRows<LawyerRow>(
      db,
      sql`select ${lawyerColumns} ${lawyerFrom} where ${condition} order by lawyers.id desc ${pageClause(query)}`,
    ),
    queryRows<{ total: number }>(db, sql`select count(*)::int as total ${lawyerFrom} where ${condition}`),
  ]);
  return { items: rows.map((row) => toLawyer(row, user)), total: count?.total ?? 0, page: query.page, pageSize: query.pageSize };
}
