import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from './connection';
import { clients, lawyers, users } from './schema';

/** An account as the API shows it: the user with the ids of its lawyer and client rows. */
const accountFields = {
  id: users.id,
  email: users.email,
  name: users.firstName,
  surname: users.surname,
  role: users.role,
  firmId: users.firmId,
  lawyerId: lawyers.id,
  customerId: clients.id,
};

/** Accounts joined to their (live) lawyer and client rows in one query; add fields and conditions. */
export function selectAccounts<Extra extends Record<string, PgColumn | SQL>>(db: Database, extra: Extra) {
  return db
    .select({ ...accountFields, ...extra })
    .from(users)
    .leftJoin(lawyers, and(eq(lawyers.userId, users.id), isNull(lawyers.deletedAt)))
    .leftJoin(clients, and(eq(clients.userId, users.id), isNull(clients.deletedAt)));
}
