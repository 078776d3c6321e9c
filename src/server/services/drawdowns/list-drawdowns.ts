import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { readTotals } from '../../db/record-totals';
import { applications, drawdowns, lawyers, loans } from '../../db/schema';
import { pageOf, pageOffset, type Paging } from '../../db/paging';
import * as drawdownPolicy from '../../policies/drawdowns';
import type { ServiceContext } from '../context';
import { caseSearchCondition } from '../applications/case-search';
import type { DrawdownStatus } from '../../../shared/rules/statuses';
import { selectDrawdownList, type DrawdownListRow } from './find-drawdown';
import { presentDrawdownItem } from './present-drawdown';

export interface DrawdownFilter {
  status?: DrawdownStatus;
  loanId?: number;
  applicationId?: number;
  firmId?: number;
  lawyerId?: number;
}

/** The caller's scope first; the filters can only narrow it. Over `drawdowns`, `loans`, `applications` and `lawyers`. */
export function drawdownCondition(actor: SessionUser, filter: DrawdownFilter): SQL | undefined {
  return and(
    drawdownPolicy.scope(actor),
    filter.status ? eq(drawdowns.status, filter.status) : undefined,
    filter.loanId ? eq(drawdowns.loanId, filter.loanId) : undefined,
    filter.applicationId ? eq(loans.applicationId, filter.applicationId) : undefined,
    filter.firmId ? eq(lawyers.firmId, filter.firmId) : undefined,
    filter.lawyerId ? eq(applications.lawyerId, filter.lawyerId) : undefined,
  );
}

/**
 * How many drawdowns the condition selects: staff filtering by nothing but the status read the
 * maintained total (docs/decisions.md, 373); everyone else counts, joining only what the condition
 * reads (the loan and its case for the scope and filters, `lawyers` for a firm; no clients, as the
 * search reads `applications` alone; docs/decisions.md, 372).
 */
async function countDrawdowns(
  db: Database,
  actor: SessionUser,
  query: DrawdownFilter & { search?: string },
  condition: SQL | undefined,
): Promise<number> {
  const seesAll = drawdownPolicy.scope(actor) === undefined;
  if (seesAll && !query.loanId && !query.applicationId && !query.firmId && !query.lawyerId && !caseSearchCondition(query.search))
    return (await readTotals(db, ['drawdown'])).of('drawdown', query.status ? [query.status] : undefined).count;
  const [row] = await db
    .select({ n: count() })
    .from(drawdowns)
    .innerJoin(loans, eq(loans.id, drawdowns.loanId))
    .innerJoin(applications, eq(applications.id, loans.applicationId))
    .innerJoin(lawyers, eq(lawyers.id, applications.lawyerId))
    .where(condition);
  return row?.n ?? 0;
}

/** A page of the drawdowns the caller may see (one loan's with loanId), newest first: one query and one count. */
export async function listDrawdowns({ db, actor }: ServiceContext, query: DrawdownFilter & Paging & { search?: string }) {
  const condition = and(drawdownCondition(actor, query), caseSearchCondition(query.search));
  const [rows, total] = await Promise.all([
    selectDrawdownList(db).where(condition).orderBy(desc(drawdowns.id)).limit(query.pageSize).offset(pageOffset(query)),
    countDrawdowns(db, actor, query, condition),
  ]);
  return pageOf(
    rows.map((row) => presentDrawdownItem(row as DrawdownListRow)),
    total,
    query,
  );
}
