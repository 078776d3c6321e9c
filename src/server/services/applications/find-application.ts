import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { applications, clients, firms, lawyers, loans, users } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as applicationPolicy from '../../policies/applications';

const clientUsers = alias(users, 'client_users');
const lawyerUsers = alias(users, 'lawyer_users');

/** The application row with its client, lawyer, firm and loan: one query. */
function selectApplication(db: Database) {
  return db
    .select({
      id: applications.id,
      lawyerId: applications.lawyerId,
      clientId: applications.clientId,
      status: applications.status,
      loanAmountPence: applications.loanAmountPence,
      envelopeId: applications.envelopeId,
      envelopeUrl: applications.envelopeUrl,
      kycAmlCheck: applications.kycAmlCheck,
      credidCheck: applications.credidCheck,
      repaymentVehicle: applications.repaymentVehicle,
      independentAdvice: applications.independentAdvice,
      startedAt: applications.startedAt,
      updatedAt: applications.updatedAt,
      remindersSent: applications.remindersSent,
      lastReminderAt: applications.lastReminderAt,
      name: clients.firstName,
      surname: clients.lastName,
      clientUserId: clients.userId,
      clientEmail: clientUsers.email,
      clientStatus: clientUsers.status,
      firmId: lawyers.firmId,
      firmName: firms.name,
      lawyerFirstName: lawyerUsers.firstName,
      lawyerSurname: lawyerUsers.surname,
      lawyerLogin: lawyerUsers.email,
      loanId: loans.id,
      loanSignedPence: loans.amountPence,
      loanPendingPence: loans.pendingAmountPence,
    })
    .from(applications)
    .innerJoin(clients, eq(clients.id, applications.clientId))
    .innerJoin(clientUsers, eq(clientUsers.id, clients.userId))
    .innerJoin(lawyers, eq(lawyers.id, applications.lawyerId))
    .innerJoin(lawyerUsers, eq(lawyerUsers.id, lawyers.userId))
    .innerJoin(firms, eq(firms.id, lawyers.firmId))
    .leftJoin(loans, eq(loans.applicationId, applications.id));
}

export type ApplicationRow = Awaited<ReturnType<ReturnType<typeof selectApplication>['where']>>[number];

/**
 * One application the caller may see, or 404 (missing and out of scope alike): the one scoped
 * loader of applications. `forUpdate` locks the application row (only that row) for the rest of the
 * transaction: saves, status changes and document changes of one application queue there, and the
 * checks made before the lock are made again under it.
 */
export async function findApplication(
  db: Database,
  actor: SessionUser,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<ApplicationRow> {
  const query = selectApplication(db).where(and(eq(applications.id, id), applicationPolicy.scope(actor)));
  const [row] = options.forUpdate ? await query.for('update', { of: applications }) : await query;
  if (!row) throw AppError.notFound();
  return row;
}
