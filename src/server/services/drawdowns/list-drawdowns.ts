import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import { applications, clients, drawdowns, lawyers, loans } from '../../db/schema';
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

/** A page of the drawdowns the caller may see (one loan's with loanId), newest first: one query and one count. */
export async function listDrawdowns({ db, actor }: ServiceContext, query: DrawdownFilter & Paging & { search?: string }) {
  const condition = and(drawdownCondition(actor, query), caseSearchCondition(query.search));
  const [rows, [total]] = await Promise.all([
    selectDrawdownList(db).where(condition).orderBy(desc(drawdowns.id)).limit(query.pageSize).offset(pageOffset(query)),
    db
      .select({ n: count() })
      .from(drawdowns)
      .innerJoin(loans, eq(loans.id, drawdowns.loanId))
      .innerJoin(applications, eq(applications.id, loans.applicationId))
      .innerJoin(clients, eq(clients.id, applications.clientId))
      .innerJoin(lawyers, eq(lawyers.id, applications.lawyerId))
      .where(condition),
  ]);
  return pageOf(
    rows.map((row) => presentDrawdownItem(row as DrawdownListRow)),
    total?.n,
    query,
  );
}
