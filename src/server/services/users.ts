import { and, count, desc, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { selectAccounts } from '../db/account-query';
import { users } from '../db/schema';
import { AppError } from '../http/app-error';

export interface UserFilter {
  page: number;
  pageSize: number;
  search?: string;
  role?: string;
  firmId?: number;
}

const extraFields = { state: users.status, createdAt: users.createdAt };

/** Escapes LIKE wildcards so a search for "50%" means the text, not a pattern. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function where(filter: UserFilter): SQL | undefined {
  const search = filter.search?.trim();
  return and(
    isNull(users.deletedAt),
    filter.role ? eq(users.role, filter.role) : undefined,
    filter.firmId ? eq(users.firmId, filter.firmId) : undefined,
    search
      ? or(ilike(users.email, likePattern(search)), ilike(users.firstName, likePattern(search)), ilike(users.surname, likePattern(search)))
      : undefined,
  );
}

/** Staff's list of accounts, newest first; one query for the page and one for the total. */
export async function listUsers(db: Database, filter: UserFilter) {
  const [items, [total]] = await Promise.all([
    selectAccounts(db, extraFields).where(where(filter)).orderBy(desc(users.id)).limit(filter.pageSize).offset((filter.page - 1) * filter.pageSize),
    db.select({ n: count() }).from(users).where(where(filter)),
  ]);
  return { items, total: total?.n ?? 0, page: filter.page, pageSize: filter.pageSize };
}

export async function getUser(db: Database, id: number) {
  const [user] = await selectAccounts(db, extraFields).where(and(eq(users.id, id), isNull(users.deletedAt)));
  if (!user) throw AppError.notFound();
  return user;
}
