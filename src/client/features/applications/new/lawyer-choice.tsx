import { useCallback, useEffect, useState } from 'react';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/failure';
import type { components } from '../../../../shared/api/schema';
import { useCachedQuery } from '../../../offline/cache';
import { readPartMessage } from '../../../offline/read-status';
import { useOnline } from '../../../api/connection';
import { SelectField } from '../../../ui/choice-fields';
import { TextField } from '../../../ui/field';
import './new-application.css';

type LawyerList = components['schemas']['LawyerList'];

/** As many as the list call gives in one page; more are found by the search. */
const LAWYER_PAGE_SIZE = 100;
const SEARCH_DEBOUNCE_MS = 300;

export const LAWYER_LABEL = 'Lawyer';

/**
 * Root's choice of the lawyer a new application belongs to (decision 345), fed by the lawyers
 * list (listLawyers, every firm's; a search narrows it). Disabled accounts are not offered.
 */
export function LawyerChoice({
  value,
  onChange,
  error,
  disabled,
}: {
  value: string;
  onChange: (lawyerId: string) => void;
  error: string | undefined;
  disabled: boolean;
}) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const fetcher = useCallback(
    async (): Promise<LawyerList> =>
      unwrap(
        await api.GET('/lawyers', {
          params: { query: { page: 1, pageSize: LAWYER_PAGE_SIZE, ...(search ? { search } : {}) } },
        }),
      ),
    [search],
  );
  const query = useCachedQuery(`lawyers?pageSize=${LAWYER_PAGE_SIZE}&search=${search}`, fetcher);
  const options = (query.data?.items ?? [])
    .filter((lawyer) => lawyer.state !== 'disabled' || String(lawyer.id) === value)
    .map((lawyer) => ({ value: String(lawyer.id), label: `${lawyer.firstName} ${lawyer.surname} (${lawyer.firm.firmName})` }));
  const online = useOnline();
  const missing = query.loading ? null : readPartMessage(query, online);

  return (
    <fieldset className="lawyer-choice">
      <legend className="lawyer-choice__legend">The application’s lawyer</legend>
      <TextField label="Find a lawyer" value={typed} onValueChange={setTyped} disabled={disabled} autoComplete="off" />
      <SelectField
        label={LAWYER_LABEL}
        value={value}
        onValueChange={onChange}
        options={options}
        placeholder={query.loading && !query.data ? 'Loading lawyers…' : 'Select'}
        error={error ?? missing ?? undefined}
        disabled={disabled}
      />
    </fieldset>
  );
}
