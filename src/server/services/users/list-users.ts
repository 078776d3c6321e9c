import { desc } from 'drizzle-orm';
import { selectAccounts } from '../../db/account-query';
import { users } from '../../db/schema';
import { type ServiceContext } from '../context';
import { countAsTotal, pageOf, pageLimit, pageSkip, pageWithTotal } from '../../db/paging';
import { type UserFilter, extraFields, userCondition } from './user-record';

/** Staff's list of accounts, newest first, and their total: one statement (db/paging.ts). */
export async function listUsers({ db }: ServiceContext, filter: UserFilter) {
  const condition = userCondition(filter);
  const total = db.select({ total: countAsTotal() }).from(users).where(condition);
  const { rows, total: n } = await pageWithTotal(db, filter, total, (figures) =>
    selectAccounts(db, { ...extraFields, figures })
      .where(condition)
      .orderBy(desc(users.id))
      .limit(pageLimit(filter))
      .offset(pageSkip(filter)),
  );
  return pageOf(rows, n, filter);
}
