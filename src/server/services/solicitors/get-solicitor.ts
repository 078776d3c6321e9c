import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { AppError } from '../../errors/app-error';
import { type ServiceContext } from '../context';
import { solicitorAbilities } from '../../policies/solicitors';
import { type SolicitorRow, casesOf, solicitorColumns } from './solicitor-record';

/**
 * One solicitor. A deleted one still reads (state 'inactive'): an application's independent step
 * keeps naming the solicitor it chose.
 */
export async function getSolicitor({ db, actor }: ServiceContext, { id }: { id: number }) {
  const [row] = await queryRows<SolicitorRow>(
    db,
    sql`select ${solicitorColumns}, (select count(*)::int from (${casesOf('s')}) c) as "casesAmount" from solicitors s where s.id = ${id}`,
  );
  if (!row) throw AppError.notFound();
  return { ...row, abilities: solicitorAbilities(actor, row) };
}
