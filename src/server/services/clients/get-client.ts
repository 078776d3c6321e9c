import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { AppError } from '../../errors/app-error';
import { type ServiceContext } from '../context';
import { clientAbilities } from '../../policies/clients';
import { type ClientRow, clientColumns, perClient, clientFrom } from './client-record';

/** One client the caller reaches through an application; else 404. */
export async function getClient({ db, actor: user }: ServiceContext, { id }: { id: number }) {
  const [row] = await queryRows<ClientRow>(
    db,
    sql`${perClient(user, id)} select ${clientColumns} ${clientFrom} where c.id = ${id} and c.deleted_at is null`,
  );
  if (!row) throw AppError.notFound();
  return { ...row, abilities: clientAbilities(user) };
}
