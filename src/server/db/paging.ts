import { sql, type SQL } from 'drizzle-orm';

/** A page of a list: 1-based page number and its size (the contract gives both defaults). */
export interface Paging {
  page: number;
  pageSize: number;
}

/** How many rows to skip for this page. */
export const pageOffset = ({ page, pageSize }: Paging): number => (page - 1) * pageSize;

/** `limit … offset …` of a raw query. */
export const pageClause = (paging: Paging): SQL => sql`limit ${paging.pageSize} offset ${pageOffset(paging)}`;

/** The wire form of a page: the items, the total and the paging asked for. */
export function pageOf<T>(items: T[], total: number | undefined, paging: Paging) {
  return { items, total: total ?? 0, page: paging.page, pageSize: paging.pageSize };
}
