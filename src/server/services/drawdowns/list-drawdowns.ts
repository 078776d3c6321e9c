import { and, desc, eq, type SQL } from 'drizzle-orm';
import { scopeActorOf, scopeValuesOf, type ScopeActor, type ScopeValues } from '../../policies/scope-values';
import type { StatementValues } from '../../db/shaped-statements';
import type { Database } from '../../db/connection';
import { keptTotal } from '../../db/record-totals';
import { applications, drawdowns, loans } from '../../db/schema';
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
import * as drawdownPolicy from '../../policies/drawdowns';
import type { ServiceContext } from '../context';
import { caseSearchOfRecords } from '../applications/case-search';
import type { DrawdownStatus } from '../../../shared/rules/statuses';
import { keptLawyerScope } from '../loans/kept-lawyer';
import { selectDrawdownListWith, type DrawdownListRow } from './find-drawdown';
import { presentDrawdownItem } from './present-drawdown';

export interface DrawdownFilter {
  status?: DrawdownStatus;
  loanId?: number;
  applicationId?: number;
  firmId?: number;
  lawyerId?: number;
}

/**
 * The caller's scope first (drawdowns are seen by whoever sees their loan's application,
 * policies/drawdowns.ts), here read with the lawyer and firm filters from the lawyer kept on the
 * drawdown row (docs/decisions.md, 621); the filters can only narrow it. Over `drawdowns`, `loans`
 * and `applications`.
 */
export function drawdownCondition(actor: ScopeActor, filter: DrawdownFilter): SQL | undefined {
  return and(
    ...keptLawyerScope(drawdowns.lawyerId, actor, filter),
    filter.status ? eq(drawdowns.status, filter.status) : undefined,
    filter.loanId ? eq(drawdowns.loanId, filter.loanId) : undefined,
    filter.applicationId ? eq(loans.applicationId, filter.applicationId) : undefined,
  );
}

/**
 * The statement of the total: staff filtering by nothing but the status read the maintained total
 * (docs/decisions.md, 373); everyone else counts, joining only what the condition reads (the loan
 * and its case for a client's scope, the loan for the filters and the search, which reads the
 * loan's application id; docs/decisions.md, 372, 621, 721), counted no further than `countLimit`
 * rows when given (decision 722).
 */
function totalOfDrawdowns(
  db: Database,
  actor: ScopeActor,
  query: DrawdownFilter & { search?: string },
  condition: SQL | undefined,
  countLimit: number | undefined,
) {
  const seesAll = drawdownPolicy.scope(actor) === undefined;
  const searches = countLimit !== undefined;
  if (seesAll && !query.loanId && !query.applicationId && !query.firmId && !query.lawyerId && !searches)
    return keptTotal(db, 'drawdown', query.status ? [query.status] : undefined);
  const readsCase = actor.role === 'customer';
  const readsLoan = readsCase || searches || query.applicationId !== undefined;
  const joinWhatIsRead = <Q extends PgSelect>(count: Q) => {
    const withLoan = readsLoan ? count.innerJoin(loans, eq(loans.id, drawdowns.loanId)) : count;
    return readsCase ? withLoan.innerJoin(applications, eq(applications.id, loans.applicationId)) : withLoan;
  };
  // A search counts no further than a thousand rows past the page (docs/decisions.md, 722).
  if (countLimit !== undefined)
    return totalUpTo(db, joinWhatIsRead(db.select({ id: drawdowns.id }).from(drawdowns).$dynamic()).where(condition), countLimit);
  return joinWhatIsRead(db.select({ total: countAsTotal() }).from(drawdowns).$dynamic()).where(condition);
}

/** What a call puts in its statement: the caller's ids and the filters' values; absent is undefined. */
interface DrawdownValues extends StatementValues, ScopeValues {
  status?: DrawdownStatus;
  loanId?: number;
  applicationId?: number;
  filterFirmId?: number;
  filterLawyerId?: number;
}

const drawdownValuesOf = (actor: ScopeActor, query: DrawdownFilter): DrawdownValues => ({
  ...scopeValuesOf(actor),
  status: query.status || undefined,
  loanId: query.loanId || undefined,
  applicationId: query.applicationId || undefined,
  filterFirmId: query.firmId || undefined,
  filterLawyerId: query.lawyerId || undefined,
});

/**
 * The statement of a page of drawdowns and its total, newest first, written from the caller's
 * role, the page and the search, and from `values` alone (db/shaped-statements.ts).
 */
function pageStatement(db: Database, role: ScopeActor['role'], values: DrawdownValues, paging: Paging, searchText?: string) {
  const actor = scopeActorOf(role, values);
  const filter = {
    status: values.status,
    loanId: values.loanId,
    applicationId: values.applicationId,
    firmId: values.filterFirmId,
    lawyerId: values.filterLawyerId,
    search: searchText,
  };
  const search = caseSearchOfRecords(loans.applicationId, searchText);
  const condition = and(drawdownCondition(actor, filter), search);
  const countLimit = search ? searchCountLimit(paging) : undefined;
  const figures = figuresColumn<{ total: number }>(totalOfDrawdowns(db, actor, filter, condition, countLimit));
  return selectDrawdownListWith(db, { figures })
    .where(condition)
    .orderBy(desc(drawdowns.id))
    .limit(pageLimit(paging))
    .offset(pageSkip(paging));
}

/**
 * A page of the drawdowns the caller may see (one loan's with loanId), newest first, and their
 * total: one statement (db/paging.ts), written once per shape (db/shaped-statements.ts) but for a
 * search, whose words make a text of their own.
 */
export async function listDrawdowns({ db, actor }: ServiceContext, query: DrawdownFilter & Paging & { search?: string }) {
  const values = drawdownValuesOf(actor, query);
  const search = caseSearchOfRecords(loans.applicationId, query.search);
  const countLimit = search ? searchCountLimit(query) : undefined;
  const { rows, total } = await shapedPage(db, query, {
    shape: `drawdowns ${actor.role}`,
    values,
    searches: search !== undefined,
    write: (written) => pageStatement(db, actor.role, written, query, query.search),
    totalAlone: () => totalOfDrawdowns(db, actor, query, and(drawdownCondition(actor, query), search), countLimit),
  });
  return pageOfCounted(
    rows.map((row) => presentDrawdownItem(row as DrawdownListRow)),
    total,
    query,
    countLimit,
  );
}
