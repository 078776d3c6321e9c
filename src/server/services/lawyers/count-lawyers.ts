import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { type ServiceContext } from '../context';
import { activeCase } from '../../db/active-case';
import { type LawyerFilter, lawyerCondition, lawyerFrom } from './lawyer-record';

/** Lawyers on the hub and those with an active case, in one query. */
export async function countLawyers({ db, actor: user }: ServiceContext, filter: LawyerFilter) {
  const [row] = await queryRows<{ total: number; withActiveCases: number }>(
    db,
    sql`select count(*)::int as total,
          count(*) filter (where exists (select 1 from applications a where a.lawyer_id = lawyers.id and ${activeCase('a')}))::int as "withActiveCases"
        ${lawyerFrom} where ${lawyerCondition(user, filter)}`,
  );
  return { total: row?.total ?? 0, withActiveCases: row?.withActiveCases ?? 0 };
}
