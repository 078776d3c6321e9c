import { applicationStatuses, type ApplicationStatus } from '../../../../shared/rules/statuses';
import { isOneOf, readListQuery as readQuery, type ListQuery as GenericListQuery } from '../../../ui/list-query';

/** The applications list's filters in the address (ui/list-query.ts): status, search and page. */
export type ListQuery = GenericListQuery<ApplicationStatus>;
export { hasFilters, listSearch } from '../../../ui/list-query';

export function isApplicationStatus(value: string | null): value is ApplicationStatus {
  return isOneOf(applicationStatuses, value);
}

export function readListQuery(params: URLSearchParams): ListQuery {
  return readQuery(params, applicationStatuses);
}
