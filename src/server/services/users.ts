import { and, count, desc, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import { selectAccounts } from '../db/account-query';
import { users } from '../db/schema';
import { AppError } from '../http/app-error';
import type { ServiceContext } from './context';
import { searchPattern } from '../db/like';
import { pageOf, pageOffset } from '../db/paging';

export interface UserFilter {
  page: number;
  pageSize: number;
  search?: string;
  role?: string;
  firmId?: number;
}

const extraFields = { state: users.status, createdAt: users.createdAt };

function where(filter: UserFilter): SQL | undefined {
  const pattern = searchPattern(filter.search);
  return and(
    isNull(users.deletedAt),
    filter.role ? eq(users.role, filter.role) : undefined,
    filter.firmId ? eq(users.firmId, filter.firmId) : undefined,
    pattern ? or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.surname, pattern)) : undefined,
  );
}

/** Staff's list of accounts, newest first; one query for the page and one for the total. */
export async function listUsers({ db }: ServiceContext, filter: UserFilter) {
  const [items, [total]] = await Promise.all([
    selectAccounts(db, extraFields)
      .where(where(filter))
      .orderBy(desc(users.id))
      .limit(filter.pageSize)
      .offset(pageOffset(filter)),
    db.select({ n: count() }).from(users).where(where(filter)),
  ]);
  return pageOf(items, total?.n, filter);
}

export async function getUser({ db }: ServiceContext, { id }: { id: number }) {
  const [user] = await selectAccounts(db, extraFields).where(and(eq(users.id, id), isNull(users.deletedAt)));
  if (!user) throw AppError.notFound();
  return user;
}
