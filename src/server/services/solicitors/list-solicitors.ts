import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { type ServiceContext } from '../context';
import { solicitorAbilities } from '../../policies/solicitors';
import { pageClause, type Paging } from '../../db/paging';
import { type SolicitorRow, casesOf, solicitorColumns, solicitorCondition } from './solicitor-record';

/**
 * A page of solicitors (by name) with each one's active cases, and the count of those with any;
 * the counts run on the page's rows only. Two queries in all.
 */
export async function listSolicitors({ db, actor }: ServiceContext, query: Paging & { search?: string }) {
  const condition = solicitorCondition(query.search);
  const [items, [counts]] = await Promise.all([
    queryRows<SolicitorRow>(
      db,
      sql`with page as (select ${solicitorColumns} from solicitors s where ${condition} order by s.name, s.id ${pageClause(query)})
          select s.*, (select count(*)::int from (${casesOf('s')}) c) as "casesAmount" from page s order by s.name, s.id`,
    ),
    queryRows<{ total: number; withActiveCases: number }>(
      db,
      sql`select count(*)::int as total, count(*) filter (where exists (${casesOf('s')}))::int as "withActiveCases" from solicitors s where ${condition}`,
    ),
  ]);
  return {
    items: items.map((solicitor) => ({ ...solicitor, abilities: solicitorAbilities(actor, solicitor) })),
    total: counts?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
    withActiveCases: counts?.withActiveCases ?? 0,
  };
}
