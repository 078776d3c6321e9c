import { applicationStatuses, applicationStatusLabels, type ApplicationStatus } from '../../../../shared/rules/statuses';
import { ListFilters as Filters } from '../../../ui/list-filters';
import type { ListQuery } from './list-query';

/**
 * Several statuses share a label (spec: esignPrepared, esignComplete and customerNotified all show
 * 'provider accepted'); the filter names the stage so each option can be told apart.
 */
const stageNotes: Partial<Record<ApplicationStatus, string>> = {
  esignPrepared: 'documents prepared',
  esignComplete: 'signing complete',
  customerNotified: 'client notified',
};

const statusOptions = applicationStatuses.map((status) => {
  const note = stageNotes[status];
  return { value: status, label: note ? `${applicationStatusLabels[status]} (${note})` : applicationStatusLabels[status] };
});

/** Status select and search box of the applications list. */
export function ListFilters({ query, onChange }: { query: ListQuery; onChange: (next: Partial<ListQuery>) => void }) {
  return <Filters query={query} onChange={onChange} statusOptions={statusOptions} searchPlaceholder="Name or case reference" />;
}
