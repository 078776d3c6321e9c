import { sql, type SQL } from 'drizzle-orm';
import { activeCaseStatuses, endedLoanStatuses } from '../../shared/rules/statuses';

const list = (values: readonly string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/**
 * "Has an active case", as SQL over an applications row under the given alias: its status is one
 * of activeCaseStatuses and it has no settled loan. The one definition the firm, lawyer,
 * solicitor and client queries use (src/shared/rules/statuses.ts says why).
 */
export function activeCase(alias: string): SQL {
  const a = sql.raw(alias);
  return sql`(${a}.status in (${list(activeCaseStatuses)}) and not exists (
    select 1 from loans ended_loan where ended_loan.application_id = ${a}.id and ended_loan.status in (${list(endedLoanStatuses)})))`;
}
