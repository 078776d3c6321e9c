import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { SessionUser } from '../auth/sessions';
import type { Database } from '../db/connection';
import { applications, applicationSteps, clients, firms, lawyers, loans, users } from '../db/schema';
import { AppError } from '../http/app-error';
import { applicationScope } from '../policies/applications';
import { listApplicationFiles } from './files';
import { isJourneyStep, type Journey, type JourneyStep } from '../../shared/journey/steps';
import type { components } from '../../shared/api/schema';

export type ApplicationRecord = components['schemas']['Application'];

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
      name: clients.firstName,
      surname: clients.lastName,
      clientUserId: clients.userId,
      clientEmail: clientUsers.email,
      firmId: lawyers.firmId,
      firmName: firms.name,
      lawyerFirstName: lawyerUsers.firstName,
      lawyerSurname: lawyerUsers.surname,
      lawyerLogin: lawyerUsers.email,
      loanId: loans.id,
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
 * One application the caller may see, or 404 (missing and out of scope alike). `forUpdate`
 * locks the application row (only that row) for the rest of the transaction: saves and status
 * changes of one application queue there.
 */
export async function findApplication(db: Database, user: SessionUser, id: number, options: { forUpdate?: boolean } = {}): Promise<ApplicationRow> {
  const query = selectApplication(db).where(and(eq(applications.id, id), applicationScope(user)));
  const [row] = options.forUpdate ? await query.for('update', { of: applications }) : await query;
  if (!row) throw AppError.notFound();
  return row;
}

/** The saved steps of an application: the journey and each step's version. */
export async function loadJourney(db: Database, applicationId: number): Promise<{ journey: Journey; versions: Partial<Record<JourneyStep, number>> }> {
  const rows = await db
    .select({ step: applicationSteps.step, data: applicationSteps.data, version: applicationSteps.version })
    .from(applicationSteps)
    .where(eq(applicationSteps.applicationId, applicationId));
  const journey: Record<string, unknown> = {};
  const versions: Partial<Record<JourneyStep, number>> = {};
  for (const row of rows) {
    if (!isJourneyStep(row.step)) continue;
    journey[row.step] = row.data;
    versions[row.step] = row.version;
  }
  return { journey: journey as Journey, versions };
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/** The Application of the contract, as the caller may see it. */
export async function applicationRecord(db: Database, user: SessionUser, row: ApplicationRow): Promise<ApplicationRecord> {
  const [{ journey, versions }, fileRecords] = await Promise.all([loadJourney(db, row.id), listApplicationFiles(db, user, row.id)]);
  return {
    id: row.id,
    lawyerId: row.lawyerId,
    customerId: row.clientId,
    firmId: row.firmId,
    loanId: row.loanId,
    name: row.name,
    surname: row.surname,
    clientEmail: row.clientEmail,
    startDate: iso(row.startedAt),
    updatedAt: iso(row.updatedAt),
    status: row.status as ApplicationRecord['status'],
    journey,
    journeyVersions: versions,
    loanAmount: row.loanAmountPence === null ? null : row.loanAmountPence / 100,
    files: fileRecords,
    envelopeId: row.envelopeId,
    envelopeUrl: row.envelopeUrl,
    kycAmlCheck: row.kycAmlCheck,
    credidCheck: row.credidCheck,
    repaymentVehicle: row.repaymentVehicle,
    independentAdvice: row.independentAdvice,
    lawyer: {
      id: row.lawyerId,
      firstName: row.lawyerFirstName,
      surname: row.lawyerSurname,
      login: row.lawyerLogin,
      firm: { id: row.firmId, firmName: row.firmName },
    },
  };
}

export async function getApplication(db: Database, user: SessionUser, id: number): Promise<ApplicationRecord> {
  return applicationRecord(db, user, await findApplication(db, user, id));
}
