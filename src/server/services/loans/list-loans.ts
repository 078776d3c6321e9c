import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { readTotals } from '../../db/record-totals';
import { applications, lawyers, loans } from '../../db/schema';
import { pageOf, pageOffset, type Paging } from '../../db/paging';
import * as loanPolicy from '../../policies/loans';
import type { ServiceContext } from '../context';
import { caseSearchCondition } from '../applications/case-search';
import { loanIdOfReference } from '../../../shared/rules/money';
import type { LoanStatus } from '../../../shared/rules/statuses';
import { selectLoans, type LoanRow } from './find-loan';
import { presentLoan } from './present-loan';

export interface LoanFilter {
  status?: LoanStatus;
  firmId?: number;
  lawyerId?: number;
  applicationId?: number;
}

/** The caller's scope first; the filters can only narrow it. */
export function loanCondition(actor: SessionUser, filter: LoanFilter): SQL | undefined {
  return and(
    loanPolicy.scope(actor),
    filter.status ? eq(loans.status, filter.status) : undefined,
    filter.firmId ? eq(lawyers.firmId, filter.firmId) : undefined,
    filter.lawyerId ? eq(applications.lawyerId, filter.lawyerId) : undefined,
    filter.applicationId ? eq(loans.applicationId, filter.applicationId) : undefined,
  );
}

/** A search is the client's name or the case reference, or a loan's reference ('LFAMA00012'). */
function searchCondition(search: string | undefined): SQL | undefined {
  const loanId = loanIdOfReference(search ?? '');
  return loanId !== undefined ? eq(loans.id, loanId) : caseSearchCondition(search);
}

/**
 * Whether the caller sees every loan and filters by nothing but the status: then the totals are the
 * maintained ones (docs/decisions.md, 373), read in a few rows instead of over every loan.
 */
export function readsMaintainedLoanTotals(actor: SessionUser, filter: LoanFilter & { search?: string }): boolean {
  return (
    loanPolicy.scope(actor) === undefined &&
    !filter.firmId &&
    !filter.lawyerId &&
    !filter.applicationId &&
    searchCondition(filter.search) === undefined
  );
}

/**
 * How many loans the condition selects: the maintained total for staff's unfiltered list, otherwise
 * counted joining only what the condition reads (`applications` for the scope, `lawyers` for a
 * firm; the search reads `applications` alone; docs/decisions.md, 372).
 */
async function countLoans(db: Database, actor: SessionUser, query: LoanFilter & { search?: string }, condition: SQL | undefined) {
  if (readsMaintainedLoanTotals(actor, query))
    return (await readTotals(db, ['loan'])).of('loan', query.status ? [query.status] : undefined).count;
  const [row] = await db
    .select({ n: count() })
    .from(loans)
    .innerJoin(applications, eq(applications.id, loans.applicationId))
    .innerJoin(lawyers, eq(lawyers.id, applications.lawyerId))
    .where(condition);
  return row?.n ?? 0;
}

/** A page of the loans the caller may see, newest first: one query for the page, one for the total. */
export async function listLoans({ db, actor }: ServiceContext, query: LoanFilter & Paging & { search?: string }) {
  const condition = and(loanCondition(actor, query), searchCondition(query.search));
  const [rows, total] = await Promise.all([
    selectLoans(db).where(condition).orderBy(desc(loans.id)).limit(query.pageSize).offset(pageOffset(query)),
    countLoans(db, actor, query, condition),
  ]);
  return pageOf(
    rows.map((row) => presentLoan(actor, row as LoanRow)),
    total,
    query,
  );
}
