import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { type ServiceContext } from '../context';
import { solicitorAbilities } from '../../policies/solicitors';
import { pageClause, pageWithFigures, type Paging } from '../../db/paging';
import { type SolicitorRow, casesOf, solicitorColumns, solicitorCondition } from './solicitor-record';

/**
 * A page of solicitors (by name) with each one's active cases, their total and the count of those
 * with any: one statement (db/paging.ts). Each one's cases are counted on the page's rows only.
 */
export async function listSolicitors({ db, actor }: ServiceContext, query: Paging & { search?: string }) {
  const condition = solicitorCondition(query.search);
  const { rows, figures } = await pageWithFigures<SolicitorRow, { total: number; withActiveCases: number }>(
    db,
    query,
    {
      statement: sql`select count(*)::int as total, count(*) filter (where exists (${casesOf('s')}))::int as "withActiveCases" from solicitors s where ${condition}`,
      whenEmpty: { total: 0, withActiveCases: 0 },
    },
    (figuresColumn) =>
      queryRows(
        db,
        sql`with page as (select ${solicitorColumns} from solicitors s where ${condition} order by s.name, s.id ${pageClause(query)})
            select s.*, (select count(*)::int from (${casesOf('s')}) c) as "casesAmount", ${figuresColumn} as figures
            from page s order by s.name, s.id`,
      ),
  );
  return {
    items: rows.map((solicitor) => ({ ...solicitor, abilities: solicitorAbilities(actor, solicitor) })),
    total: figures.total,
    page: query.page,
    pageSize: query.pageSize,
    withActiveCases: figures.withActiveCases,
  };
}
