import { PAGE_MAX, PAGE_SIZE, SEARCH_MAX_LENGTH } from '../../shared/rules/limits';

/**
 * A list's filters live in the address (?status=&search=&page=): a filtered page can be
 * bookmarked, and back and forward move between filters. Anything unusable in the address is
 * ignored rather than refused. `S` is the list's status codes.
 */
export interface ListQuery<S extends string = string> {
  status: S | null;
  search: string;
  page: number;
}

export function isOneOf<S extends string>(statuses: readonly S[], value: string | null): value is S {
  return value !== null && (statuses as readonly string[]).includes(value);
}

export function readListQuery<S extends string>(params: URLSearchParams, statuses: readonly S[]): ListQuery<S> {
  const status = params.get('status');
  const page = Number(params.get('page'));
  return {
    status: isOneOf(statuses, status) ? status : null,
    search: (params.get('search') ?? '').trim().slice(0, SEARCH_MAX_LENGTH),
    page: Number.isInteger(page) && page >= 1 && page <= PAGE_MAX ? page : 1,
  };
}

/** The query string of a list state: defaults are left out, so the plain list is just `?`-less. */
export function listSearch(query: ListQuery): string {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  if (query.search) params.set('search', query.search);
  if (query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A list state as the API's query: the page, the page size, and only the filters that are set. */
export function listApiQuery<S extends string>(
  query: ListQuery<S>,
): { page: number; pageSize: number; search?: string; status?: S } {
  return {
    page: query.page,
    pageSize: PAGE_SIZE,
    ...(query.search ? { search: query.search } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
}

export function hasFilters(query: ListQuery): boolean {
  return query.status !== null || query.search !== '';
}

/**
 * What a list's page holds, once its answer is in: rows; no records at all (the general "More
 * info" panel); nothing that matches the filters; or a page past the end of the records there are
 * (docs/decisions.md 452). `rows` counts what the page shows, records still on the device included.
 */
export type ListOutcome = 'rows' | 'nothingYet' | 'noMatch' | 'pastEnd';

export function listOutcome(answer: { total: number }, rows: number, page: number, filtered: boolean): ListOutcome {
  if (rows > 0) return 'rows';
  if (answer.total > 0) return 'pastEnd';
  if (filtered) return 'noMatch';
  return page > 1 ? 'pastEnd' : 'nothingYet';
}

/** How many pages `total` records fill (at least one: an empty list is one empty page). */
export function pageCountOf(answer: { total: number; pageSize: number }, fallbackPageSize: number): number {
  return Math.max(1, Math.ceil(answer.total / (answer.pageSize || fallbackPageSize)));
}
