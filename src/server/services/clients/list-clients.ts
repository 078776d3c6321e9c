import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { type ServiceContext } from '../context';
import { clientAbilities } from '../../policies/clients';
import { pageClause, type Paging } from '../../db/paging';
import { type ClientRow, clientColumns, perClient, clientCondition, clientFrom } from './client-record';

/** A page of the caller's clients (newest first) and the count with active cases; two queries. */
export async function listClients({ db, actor: user }: ServiceContext, query: Paging & { search?: string }) {
  const condition = clientCondition(query.search);
  const [items, [counts]] = await Promise.all([
    queryRows<ClientRow>(
      db,
      sql`${perClient(user)} select ${clientColumns} ${clientFrom} where ${condition} order by c.id desc ${pageClause(query)}`,
    ),
    queryRows<{ total: number; withActiveCases: number }>(
      db,
      sql`${perClient(user)} select count(*)::int as total, count(*) filter (where pc.active_cases > 0)::int as "withActiveCases" ${clientFrom} where ${condition}`,
    ),
  ]);
  return {
    items: items.map((client) => ({ ...client, abilities: clientAbilities(user) })),
    total: counts?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
    withActiveCases: counts?.withActiveCases ?? 0,
  };
}
