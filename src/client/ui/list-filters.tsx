import { useEffect, useId, useRef, useState } from 'react';
import { SEARCH_MAX_LENGTH } from '../../shared/rules/limits';
import type { ChoiceOption } from './choice-fields';
import type { ListQuery } from './list-query';
import './field.css';
import './list-filters.css';

/** Typing settles for this long before the search goes into the address (and to the server). */
const SEARCH_DEBOUNCE_MS = 400;

interface ListFiltersProps<S extends string> {
  query: ListQuery<S>;
  onChange: (next: Partial<ListQuery<S>>) => void;
  /** The statuses to filter by, with their labels, in the order shown. */
  statusOptions: readonly (ChoiceOption & { value: S })[];
  searchPlaceholder: string;
}

/** Status select and search box of a list. The search is debounced; both reset the page to the first. */
export function ListFilters<S extends string>({ query, onChange, statusOptions, searchPlaceholder }: ListFiltersProps<S>) {
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
      // Enter may have searched for it already: searching again would take the address back to it
      // from wherever the person has gone since (a 'clear filters' a moment after Enter).
      if (trimmed === committed.current) return;
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
              const status = statusOptions.find((option) => option.value === value)?.value ?? null;
              onChange({ status, page: 1 } as Partial<ListQuery<S>>);
            }}
          >
            <option value="">All statuses</option>
            {statusOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
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
            placeholder={searchPlaceholder}
            maxLength={SEARCH_MAX_LENGTH}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              // Enter searches at once.
              if (event.key === 'Enter') {
                const trimmed = text.trim();
                if (trimmed !== committed.current) {
                  committed.current = trimmed;
                  onChange({ search: trimmed, page: 1 } as Partial<ListQuery<S>>);
                }
              }
            }}
          />
        </div>
      </div>
    </form>
  );
}
