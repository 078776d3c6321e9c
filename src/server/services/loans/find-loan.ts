import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { applications, clients, drawdowns, envelopes, lawyers, loans } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as loanPolicy from '../../policies/loans';
import { creditUsingDrawdownStatuses, type LoanStatus } from '../../../shared/rules/statuses';

/** The drawdowns that use a loan's credit (every one not refused), in pence: per loan row. */
export const drawnPenceOfLoan = sql<number>`(select coalesce(sum(${drawdowns.amountPence}), 0) from ${drawdowns}
  where ${drawdowns.loanId} = ${loans.id} and ${inArray(drawdowns.status, [...creditUsingDrawdownStatuses])})`.mapWith(Number);

/** Whether the loan's pending variation has an envelope the client may sign now (docs/decisions.md, 507). */
const variationToSign = sql<boolean>`exists (select 1 from ${envelopes} where ${envelopes.loanId} = ${loans.id}
  and ${envelopes.kind} = 'variation' and ${envelopes.status} in ('created', 'notified'))`.mapWith(Boolean);

/** A loan's columns with its case (client, lawyer, firm) and what has been drawn. */
const loanColumns = {
  id: loans.id,
  applicationId: loans.applicationId,
  amountPence: loans.amountPence,
  pendingAmountPence: loans.pendingAmountPence,
  variationToSign,
  status: loans.status,
  createdAt: loans.createdAt,
  lawyerId: applications.lawyerId,
  clientId: applications.clientId,
  firmId: lawyers.firmId,
  clientUserId: clients.userId,
  clientName: clients.firstName,
  clientSurname: clients.lastName,
  caseRef: applications.caseRef,
  drawnPence: drawnPenceOfLoan,
};

/** A loan with its case (client, lawyer, firm) and what has been drawn: one query for one loan or a page. */
export function selectLoans(db: Database) {
  return selectLoansWith(db, {});
}

/** `selectLoans` with more columns (a list's figures, db/paging.ts). */
export function selectLoansWith<Extra extends Record<string, SQL>>(db: Database, extra: Extra) {
  return db
    .select({ ...loanColumns, ...extra })
    .from(loans)
    .innerJoin(applications, eq(applications.id, loans.applicationId))
    .innerJoin(clients, eq(clients.id, applications.clientId))
    .innerJoin(lawyers, eq(lawyers.id, applications.lawyerId));
}

type SelectedLoan = Awaited<ReturnType<ReturnType<typeof selectLoans>['where']>>[number];
export type LoanRow = Omit<SelectedLoan, 'status'> & { status: LoanStatus };

async function findLoanWhere(db: Database, actor: SessionUser, condition: SQL): Promise<LoanRow> {
  const [row] = await selectLoans(db).where(and(condition, loanPolicy.scope(actor)));
  if (!row) throw AppError.notFound();
  return row as LoanRow;
}

/** One loan the caller may see, or 404 (missing and out of scope alike: nobody learns which ids exist). */
export function findLoan(db: Database, actor: SessionUser, id: number): Promise<LoanRow> {
  return findLoanWhere(db, actor, eq(loans.id, id));
}

/**
 * The loan itself, whoever may see it: for the server's own work on a provider's report (a signed
 * variation DocuSign tells of), where no caller's scope applies. 404 when it does not exist.
 */
export async function loanById(db: Database, id: number): Promise<LoanRow> {
  const [row] = await selectLoans(db).where(eq(loans.id, id));
  if (!row) throw AppError.notFound();
  return row as LoanRow;
}

/** The loan of an application the caller may see, or 404 (no loan yet, or out of scope). */
export function findLoanOfApplication(db: Database, actor: SessionUser, applicationId: number): Promise<LoanRow> {
  return findLoanWhere(db, actor, eq(loans.applicationId, applicationId));
}

/**
 * Locks the loan's row for the rest of the transaction: every change of its credit (a request, a
 * changed request, a new amount) and of its status queues here, one at a time, so twenty requests
 * at once cannot together draw more than the credit. Read the loan again after this (`findLoan`,
 * a new statement): what was read before the lock may have changed while waiting for it.
 */
export async function lockLoan(tx: Database, loanId: number): Promise<void> {
  await tx.select({ id: loans.id }).from(loans).where(eq(loans.id, loanId)).for('update');
}
