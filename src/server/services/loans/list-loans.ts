import { and, desc, eq, type SQL } from 'drizzle-orm';
import { scopeActorOf, scopeValuesOf, type ScopeActor, type ScopeValues } from '../../policies/scope-values';
import type { StatementValues } from '../../db/shaped-statements';
import type { Database } from '../../db/connection';
import { keptTotal } from '../../db/record-totals';
import { applications, loans } from '../../db/schema';
import {
  countAsTotal,
  pageLimit,
  pageOfCounted,
  pageSkip,
  figuresColumn,
  shapedPage,
  searchCountLimit,
  totalUpTo,
  type Paging,
} from '../../db/paging';
import type { PgSelect } from 'drizzle-orm/pg-core';
import { keptLawyerScope } from './kept-lawyer';
import * as loanPolicy from '../../policies/loans';
import type { ServiceContext } from '../context';
import { caseSearchOfRecords } from '../applications/case-search';
import { loanIdOfReference } from '../../../shared/rules/loan-reference';
import type { LoanStatus } from '../../../shared/rules/statuses';
import { selectLoansWith, type LoanRow } from './find-loan';
import { presentLoan } from './present-loan';

export interface LoanFilter {
  status?: LoanStatus;
  firmId?: number;
  lawyerId?: number;
  applicationId?: number;
}

/**
 * The caller's scope first (loans are seen by whoever sees their application, policies/loans.ts),
 * here read with the lawyer and firm filters from the lawyer kept on the loan row (docs/decisions.md,
 * 621); the filters can only narrow it. Over `loans` and `applications`.
 */
export function loanCondition(actor: ScopeActor, filter: LoanFilter): SQL | undefined {
  return and(
    ...keptLawyerScope(loans.lawyerId, actor, filter),
    filter.status ? eq(loans.status, filter.status) : undefined,
    filter.applicationId ? eq(loans.applicationId, filter.applicationId) : undefined,
  );
}

/** A search is the client's name or the case reference, or a loan's reference ('LFAMA00012'). */
function searchCondition(search: string | undefined): SQL | undefined {
  const loanId = loanIdOfReference(search ?? '');
  return loanId !== undefined ? eq(loans.id, loanId) : caseSearchOfRecords(loans.applicationId, search);
}

/**
 * Whether the caller sees every loan and filters by nothing but the status: then the totals are the
 * maintained ones (docs/decisions.md, 373), read in a few rows instead of over every loan.
 */
export function readsMaintainedLoanTotals(actor: ScopeActor, filter: LoanFilter & { search?: string }): boolean {
  return (
    loanPolicy.scope(actor) === undefined &&
    !filter.firmId &&
    !filter.lawyerId &&
    !filter.applicationId &&
    searchCondition(filter.search) === undefined
  );
}

/**
 * The statement of the total: the maintained total for staff's unfiltered list, otherwise a count
 * joining only what the condition reads (`applications` for a client's scope; the search reads the
 * loan's application id; docs/decisions.md, 372, 621, 721), counted no further than `countLimit`
 * rows when given (decision 722).
 */
function totalOfLoans(
  db: Database,
  actor: ScopeActor,
  query: LoanFilter & { search?: string },
  condition: SQL | undefined,
  countLimit: number | undefined,
) {
  if (readsMaintainedLoanTotals(actor, query)) return keptTotal(db, 'loan', query.status ? [query.status] : undefined);
  const readsCase = actor.role === 'customer';
  const joinCase = <Q extends PgSelect>(count: Q) =>
    readsCase ? count.innerJoin(applications, eq(applications.id, loans.applicationId)) : count;
  // A search counts no further than a thousand rows past the page (docs/decisions.md, 722).
  if (countLimit !== undefined)
    return totalUpTo(db, joinCase(db.select({ id: loans.id }).from(loans).$dynamic()).where(condition), countLimit);
  return joinCase(db.select({ total: countAsTotal() }).from(loans).$dynamic()).where(condition);
}

/** What a call puts in its statement: the caller's ids and the filters' values; absent is undefined. */
interface LoanValues extends StatementValues, ScopeValues {
  status?: LoanStatus;
  filterFirmId?: number;
  filterLawyerId?: number;
  applicationId?: number;
}

const loanValuesOf = (actor: ScopeActor, query: LoanFilter): LoanValues => ({
  ...scopeValuesOf(actor),
  status: query.status || undefined,
  filterFirmId: query.firmId || undefined,
  filterLawyerId: query.lawyerId || undefined,
  applicationId: query.applicationId || undefined,
});

/**
 * The statement of a page of loans and its total, newest first, written from the caller's role,
 * the page and the search, and from `values` alone (db/shaped-statements.ts).
 */
function pageStatement(db: Database, role: ScopeActor['role'], values: LoanValues, paging: Paging, searchText?: string) {
  const actor = scopeActorOf(role, values);
  const filter = {
    status: values.status,
    firmId: values.filterFirmId,
    lawyerId: values.filterLawyerId,
    applicationId: values.applicationId,
    search: searchText,
  };
  const search = searchCondition(searchText);
  const condition = and(loanCondition(actor, filter), search);
  const countLimit = search ? searchCountLimit(paging) : undefined;
  const figures = figuresColumn<{ total: number }>(totalOfLoans(db, actor, filter, condition, countLimit));
  return selectLoansWith(db, { figures })
    .where(condition)
    .orderBy(desc(loans.id))
    .limit(pageLimit(paging))
    .offset(pageSkip(paging));
}

/**
 * A page of the loans the caller may see, newest first, and their total: one statement
 * (db/paging.ts), written once per shape (db/shaped-statements.ts) but for a search, whose words
 * make a text of their own.
 */
export async function listLoans({ db, actor }: ServiceContext, query: LoanFilter & Paging & { search?: string }) {
  const values = loanValuesOf(actor, query);
  const search = searchCondition(query.search);
  const countLimit = search ? searchCountLimit(query) : undefined;
  const { rows, total } = await shapedPage(db, query, {
    shape: `loans ${actor.role}`,
    values,
    searches: search !== undefined,
    write: (written) => pageStatement(db, actor.role, written, query, query.search),
    totalAlone: () => totalOfLoans(db, actor, query, and(loanCondition(actor, query), search), countLimit),
  });
  return pageOfCounted(
    rows.map((row) => presentLoan(actor, row as LoanRow)),
    total,
    query,
    countLimit,
  );
}
