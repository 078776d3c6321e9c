import { useEffect, useId, useRef, useState } from 'react';
import { applicationStatuses, applicationStatusLabels, type ApplicationStatus } from '../../../shared/rules/statuses';
import { SEARCH_MAX_LENGTH } from '../../../shared/rules/limits';
import { isApplicationStatus, type ListQuery } from './list-query';
import '../../ui/field.css';

/** Typing settles for this long before the search goes into the address (and to the server). */
const SEARCH_DEBOUNCE_MS = 400;

/**
 * Several statuses share a label (spec: esignPrepared, esignComplete and customerNotified all show
 * 'provider accepted'); the filter names the stage so each option can be told apart.
 */
const stageNotes: Partial<Record<ApplicationStatus, string>> = {
  esignPrepared: 'documents prepared',
  esignComplete: 'signing complete',
  customerNotified: 'client notified',
};

function statusOptionLabel(status: ApplicationStatus): string {
  const note = stageNotes[status];
  return note ? `${applicationStatusLabels[status]} (${note})` : applicationStatusLabels[status];
}

interface ListFiltersProps {
  query: ListQuery;
  onChange: (next: Partial<ListQuery>) => void;
}

/** Status select and search box. The search is debounced; both reset the page to the first. */
export function ListFilters({ query, onChange }: ListFiltersProps) {
  const statusId = useId();
  const searchId = useId();
  const [text, setText] = useState(query.search);
  // What the address says now: back/forward (or a link) replaces what is in the box.
  const committed = useRef(query.search);
  useEffect(() => {
    if (query.search !== committed.current) {
      committed.current = query.search;
      setText(query.search);
    }
  }, [query.search]);

  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = trimmed;
      onChangeRef.current({ search: trimmed, page: 1 });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <form className="list-filters" role="search" onSubmit={(event) => event.preventDefault()}>
      <div className="field list-filters__status">
        <label className="field__label" htmlFor={statusId}>
          Status
        </label>
        <div className="field__control">
          <select
            id={statusId}
            className="field__input field__select"
            value={query.status ?? ''}
            onChange={(event) => {
              const value = event.target.value;
              onChange({ status: isApplicationStatus(value) ? value : null, page: 1 });
            }}
          >
            <option value="">All statuses</option>
            {applicationStatuses.map((status) => (
              <option key={status} value={status}>
                {statusOptionLabel(status)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field list-filters__search">
        <label className="field__label" htmlFor={searchId}>
          Search
        </label>
        <div className="field__control">
          <input
            id={searchId}
            className="field__input"
            type="search"
            inputMode="search"
            placeholder="Name or case reference"
            maxLength={SEARCH_MAX_LENGTH}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              // Enter searches at once.
              if (event.key === 'Enter') {
                const trimmed = text.trim();
                if (trimmed !== committed.current) {
                  committed.current = trimmed;
                  onChange({ search: trimmed, page: 1 });
                }
              }
            }}
          />
        </div>
      </div>
    </form>
  );
}
