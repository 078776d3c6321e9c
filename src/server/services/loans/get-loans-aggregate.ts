import { eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/connection';
import { readTotals } from '../../db/record-totals';
import { applications, lawyers, loans } from '../../db/schema';
import type { ServiceContext } from '../context';
import { toPounds } from '../../../shared/rules/money';
import { creditUsingDrawdownStatuses } from '../../../shared/rules/statuses';
import type { components } from '../../../shared/api/schema';
import { drawnPenceOfLoan } from './find-loan';
import { loanCondition, readsMaintainedLoanTotals, type LoanFilter } from './list-loans';

type LoanAggregate = components['schemas']['LoanAggregate'];

/**
 * Totals over the loans a condition selects (over `loans`, `applications` and `lawyers`): credit
 * offered, the drawdowns that use credit, how many loans, and the latest signing (a loan is
 * created when the client signs). One statement; sums in integer pence, pounds at the end.
 */
export async function loansAggregate(db: Database, condition: ReturnType<typeof loanCondition>): Promise<LoanAggregate> {
  const [row] = await queryRows<{
    offered: string | number;
    drawn: string | number;
    count: number;
    latest: Date | string | null;
  }>(
    db,
    sql`select coalesce(sum(${loans.amountPence}), 0) as "offered",
          coalesce(sum(${drawnPenceOfLoan}), 0) as "drawn",
          count(${loans.id})::int as "count",
          max(${loans.createdAt}) as "latest"
        from ${loans}
        join ${applications} on ${eq(applications.id, loans.applicationId)}
        join ${lawyers} on ${eq(lawyers.id, applications.lawyerId)}
        where ${condition ?? sql`true`}`,
  );
  return {
    loansSum: toPounds(Number(row?.offered ?? 0)),
    totalDrawdowns: toPounds(Number(row?.drawn ?? 0)),
    loansCount: row?.count ?? 0,
    dateCustomerAccepted: row?.latest ? new Date(row.latest).toISOString() : null,
  };
}

/**
 * 'All loans overview': totals over the loans the caller may see (the filters narrow them). Staff
 * with no filter read the maintained totals (docs/decisions.md, 373): the loans' count, credit and
 * latest signing, and what the drawdowns that use credit have drawn (every drawdown has its loan,
 * every loan its case, so these are the statement's figures without reading every row).
 */
export async function getLoansAggregate({ db, actor }: ServiceContext, filter: LoanFilter): Promise<LoanAggregate> {
  if (readsMaintainedLoanTotals(actor, filter) && !filter.status) {
    const totals = await readTotals(db, ['loan', 'drawdown']);
    const offered = totals.of('loan');
    const drawn = totals.of('drawdown', creditUsingDrawdownStatuses);
    return {
      loansSum: toPounds(offered.amountPence),
      totalDrawdowns: toPounds(drawn.amountPence),
      loansCount: offered.count,
      dateCustomerAccepted: offered.latestAt ? offered.latestAt.toISOString() : null,
    };
  }
  return loansAggregate(db, loanCondition(actor, filter));
}
