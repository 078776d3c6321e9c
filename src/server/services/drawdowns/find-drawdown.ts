import { and, eq, type SQL } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { applications, clients, drawdowns, lawyers, loans } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as drawdownPolicy from '../../policies/drawdowns';
import type { DrawdownStatus, LoanStatus } from '../../../shared/rules/statuses';
import { drawnPenceOfLoan } from '../loans/find-loan';

/** The drawdown's columns a list shows, with its loan's figures and its case (client, lawyer). */
const listColumns = {
  id: drawdowns.id,
  loanId: drawdowns.loanId,
  status: drawdowns.status,
  amountPence: drawdowns.amountPence,
  createdAt: drawdowns.createdAt,
  applicationId: loans.applicationId,
  loanStatus: loans.status,
  loanAmountPence: loans.amountPence,
  loanDrawnPence: drawnPenceOfLoan,
  lawyerId: applications.lawyerId,
  clientId: applications.clientId,
  firstName: clients.firstName,
  lastName: clients.lastName,
  caseRef: applications.caseRef,
};

/** Everything of one drawdown: the list's columns and the request, the declarations and the client's approval. */
const detailColumns = {
  ...listColumns,
  loanPendingAmountPence: loans.pendingAmountPence,
  invoiceNumber: drawdowns.invoiceNumber,
  stageOfCase: drawdowns.stageOfCase,
  materialChanges: drawdowns.materialChanges,
  materialChangesDetails: drawdowns.materialChangesDetails,
  nextHearingDate: drawdowns.nextHearingDate,
  finalOrderDate: drawdowns.finalOrderDate,
  reaplyAssets: drawdowns.reaplyAssets,
  expectedRepaymentDate: drawdowns.expectedRepaymentDate,
  clientExpectedRepaymentDate: drawdowns.clientExpectedRepaymentDate,
  lawyerDeclarations: drawdowns.lawyerDeclarations,
  clientDeclarations: drawdowns.clientDeclarations,
  clientApprovedAt: drawdowns.clientApprovedAt,
  requestedBy: drawdowns.requestedBy,
  remindersSent: drawdowns.remindersSent,
  lastReminderAt: drawdowns.lastReminderAt,
};

/** Drawdowns with their loan and case: one query for one drawdown or a page. */
export function selectDrawdownList(db: Database) {
  return selectDrawdownListWith(db, {});
}

/** `selectDrawdownList` with more columns (a list's figures, db/paging.ts). */
export function selectDrawdownListWith<Extra extends Record<string, SQL>>(db: Database, extra: Extra) {
  return db
    .select({ ...listColumns, ...extra })
    .from(drawdowns)
    .innerJoin(loans, eq(loans.id, drawdowns.loanId))
    .innerJoin(applications, eq(applications.id, loans.applicationId))
    .innerJoin(clients, eq(clients.id, applications.clientId))
    .innerJoin(lawyers, eq(lawyers.id, applications.lawyerId));
}

function selectDrawdownDetail(db: Database) {
  return db
    .select(detailColumns)
    .from(drawdowns)
    .innerJoin(loans, eq(loans.id, drawdowns.loanId))
    .innerJoin(applications, eq(applications.id, loans.applicationId))
    .innerJoin(clients, eq(clients.id, applications.clientId))
    .innerJoin(lawyers, eq(lawyers.id, applications.lawyerId));
}

type Typed<T> = Omit<T, 'status' | 'loanStatus'> & { status: DrawdownStatus; loanStatus: LoanStatus };
export type DrawdownListRow = Typed<Awaited<ReturnType<ReturnType<typeof selectDrawdownList>['where']>>[number]>;
export type DrawdownRow = Typed<Awaited<ReturnType<ReturnType<typeof selectDrawdownDetail>['where']>>[number]>;

/** One drawdown the caller may see, or 404 (missing and out of scope alike). */
export async function findDrawdown(db: Database, actor: SessionUser, id: number, extra?: SQL): Promise<DrawdownRow> {
  const [row] = await selectDrawdownDetail(db).where(and(eq(drawdowns.id, id), drawdownPolicy.scope(actor), extra));
  if (!row) throw AppError.notFound();
  return row as DrawdownRow;
}
