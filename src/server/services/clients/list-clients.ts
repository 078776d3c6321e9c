import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { type ServiceContext } from '../context';
import { clientAbilities } from '../../policies/clients';
import { pageClause, pageWithFigures, type Paging } from '../../db/paging';
import { type ClientRow, clientColumns, perClient, clientCondition, clientFrom } from './client-record';

/** A page of the caller's clients (newest first), their total and the count with active cases: one statement (db/paging.ts). */
export async function listClients({ db, actor: user }: ServiceContext, query: Paging & { search?: string }) {
  const condition = clientCondition(query.search);
  const { rows, figures } = await pageWithFigures<ClientRow, { total: number; withActiveCases: number }>(
    db,
    query,
    {
      statement: sql`${perClient(user)} select count(*)::int as total, count(*) filter (where pc.active_cases > 0)::int as "withActiveCases" ${clientFrom} where ${condition}`,
      whenEmpty: { total: 0, withActiveCases: 0 },
    },
    (figuresColumn) =>
      queryRows(
        db,
        sql`${perClient(user)} select ${clientColumns}, ${figuresColumn} as figures ${clientFrom} where ${condition} order by c.id desc ${pageClause(query)}`,
      ),
  );
  return {
    items: rows.map((client) => ({ ...client, abilities: clientAbilities(user) })),
    total: figures.total,
    page: query.page,
    pageSize: query.pageSize,
    withActiveCases: figures.withActiveCases,
  };
}
