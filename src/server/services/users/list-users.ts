import { count, desc } from 'drizzle-orm';
import { selectAccounts } from '../../db/account-query';
import { users } from '../../db/schema';
import { type ServiceContext } from '../context';
import { pageOf, pageOffset } from '../../db/paging';
import { type UserFilter, extraFields, userCondition } from './user-record';

/** Staff's list of accounts, newest first; one query for the page and one for the total. */
export async function listUsers({ db }: ServiceContext, filter: UserFilter) {
  const [items, [total]] = await Promise.all([
    selectAccounts(db, extraFields)
      .where(userCondition(filter))
      .orderBy(desc(users.id))
      .limit(filter.pageSize)
      .offset(pageOffset(filter)),
    db.select({ n: count() }).from(users).where(userCondition(filter)),
  ]);
  return pageOf(items, total?.n, filter);
}
