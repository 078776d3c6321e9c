import { eq } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { applications, clients, firms, lawyers, users } from '../db/schema';

/**
 * What every document about an application prints of its people: the application, its client's
 * name, phone and email, its lawyer's name and email, and the law firm (the application PDF and
 * the contract documents). Undefined when the application does not exist.
 */
export async function loadApplicationParties(db: Database, applicationId: number) {
  const [row] = await db
    .select({
      application: applications,
      clientFirstName: clients.firstName,
      clientLastName: clients.lastName,
      clientPhone: clients.contactNumber,
      clientEmail: users.email,
      lawyerUserId: lawyers.userId,
      firm: firms.name,
    })
    .from(applications)
    .innerJoin(clients, eq(clients.id, applications.clientId))
    .innerJoin(users, eq(users.id, clients.userId))
    .innerJoin(lawyers, eq(lawyers.id, applications.lawyerId))
    .innerJoin(firms, eq(firms.id, lawyers.firmId))
    .where(eq(applications.id, applicationId))
    .limit(1);
  if (!row) return undefined;
  const [lawyerUser] = await db
    .select({ firstName: users.firstName, surname: users.surname, email: users.email })
    .from(users)
    .where(eq(users.id, row.lawyerUserId));
  return { row, lawyerUser };
}
