import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { readTotals } from '../../db/record-totals';
import { applications, drawdowns, lawyers, loans } from '../../db/schema';
import * as loanPolicy from '../../policies/loans';
import type { ServiceContext } from '../context';
import { toPounds } from '../../../shared/rules/money';
import { creditUsingDrawdownStatuses } from '../../../shared/rules/statuses';
import type { components } from '../../../shared/api/schema';

type DrawdownAggregate = components['schemas']['DrawdownAggregate'];

/**
 * The drawdowns overview over the loans the caller may see: 'Already drawndown' (every drawdown
 * that uses credit), 'Drawdowns paid', and 'Available to drawdown' (the credit offered less what is
 * drawn); pending is drawn less paid. One statement, sums in integer pence, pounds at the end.
 * Staff with no filter read the maintained totals instead (docs/decisions.md, 373): every drawdown
 * has its loan and every loan its case, so they are the statement's figures over every row.
 */
export async function getDrawdownsAggregate(
  { db, actor }: ServiceContext,
  filter: { loanId?: number; firmId?: number; lawyerId?: number },
): Promise<DrawdownAggregate> {
  if (loanPolicy.scope(actor) === undefined && !filter.loanId && !filter.firmId && !filter.lawyerId) {
    const totals = await readTotals(db, ['loan', 'drawdown']);
    const offered = totals.of('loan');
    const drawn = totals.of('drawdown', creditUsingDrawdownStatuses);
    const paid = totals.of('drawdown', ['paid']);
    return {
      amount: toPounds(drawn.amountPence),
      amountPaid: toPounds(paid.amountPence),
      restLoansAmount: toPounds(offered.amountPence - drawn.amountPence),
    };
  }
  const condition = and(
    loanPolicy.scope(actor),
    filter.loanId ? eq(loans.id, filter.loanId) : undefined,
    filter.firmId ? eq(lawyers.firmId, filter.firmId) : undefined,
    filter.lawyerId ? eq(applications.lawyerId, filter.lawyerId) : undefined,
  );
  const using = inArray(drawdowns.status, [...creditUsingDrawdownStatuses]);
  const [row] = await queryRows<{ offered: string | number; drawn: string | number; paid: string | number }>(
    db,
    sql`select coalesce(sum(${loans.amountPence}), 0) as "offered",
          coalesce(sum(used.drawn), 0) as "drawn",
          coalesce(sum(used.paid), 0) as "paid"
        from ${loans}
        join ${applications} on ${eq(applications.id, loans.applicationId)}
        join ${lawyers} on ${eq(lawyers.id, applications.lawyerId)}
        left join lateral (
          select sum(${drawdowns.amountPence}) filter (where ${using}) as drawn,
                 sum(${drawdowns.amountPence}) filter (where ${eq(drawdowns.status, 'paid')}) as paid
          from ${drawdowns} where ${eq(drawdowns.loanId, loans.id)}
        ) used on true
        where ${condition ?? sql`true`}`,
  );
  const offered = Number(row?.offered ?? 0);
  const drawn = Number(row?.drawn ?? 0);
  return { amount: toPounds(drawn), amountPaid: toPounds(Number(row?.paid ?? 0)), restLoansAmount: toPounds(offered - drawn) };
}
