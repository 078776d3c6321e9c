import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { type ServiceContext } from '../context';
import { pageClause, pageWithTotal, type Paging } from '../../db/paging';
import { type LawyerFilter, type LawyerRow, lawyerColumns, toLawyer, lawyerCondition, lawyerFrom } from './lawyer-record';

/** A page of lawyers, newest first, and their total: one statement (db/paging.ts). */
export async function listLawyers({ db, actor: user }: ServiceContext, query: Paging & LawyerFilter) {
  const condition = lawyerCondition(user, query);
  const { rows, total } = await pageWithTotal<LawyerRow>(
    db,
    query,
    sql`select count(*)::int as total ${lawyerFrom} where ${condition}`,
    (figures) =>
      queryRows(
        db,
        sql`select ${lawyerColumns}, ${figures} as figures ${lawyerFrom} where ${condition} order by lawyers.id desc ${pageClause(query)}`,
      ),
  );
  return { items: rows.map((row) => toLawyer(row, user)), total, page: query.page, pageSize: query.pageSize };
}
