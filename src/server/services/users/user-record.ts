import { and, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import { users } from '../../db/schema';
import { searchPattern } from '../../db/like';

export interface UserFilter {
  page: number;
  pageSize: number;
  search?: string;
  role?: string;
  firmId?: number;
}
export const extraFields = { state: users.status, createdAt: users.createdAt };
export function userCondition(filter: UserFilter): SQL | undefined {
  const pattern = searchPattern(filter.search);
  return and(
    isNull(users.deletedAt),
    filter.role ? eq(users.role, filter.role) : undefined,
    filter.firmId ? eq(users.firmId, filter.firmId) : undefined,
    pattern ? or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.surname, pattern)) : undefined,
  );
}
