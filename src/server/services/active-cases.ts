import { sql, type SQL } from 'drizzle-orm';
import { activeCaseStatuses, endedLoanStatuses } from '../../shared/rules/statuses';

const list = (values: readonly string[]) => sql.join(values.map((value) => sql`${value}`), sql`, `);

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

/** Free text for ILIKE: LIKE's wildcards escaped, so "50%" means the text. Undefined when blank. */
export function searchPattern(search: string | undefined): string | undefined {
  const text = search?.trim();
  return text ? `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
}

export interface Paging {
  page: number;
  pageSize: number;
}

export const pageClause = ({ page, pageSize }: Paging): SQL => sql`limit ${pageSize} offset ${(page - 1) * pageSize}`;

/** The database's unique-violation state: an email taken by a request that raced this one. */
export const UNIQUE_VIOLATION = '23505';
