import { useCallback, useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { hasPermissions } from '../../../../shared/rules/permissions';
import { PAGE_SIZE } from '../../../../shared/rules/limits';
import { paths } from '../../../routing/paths';
import { sessionUserAtom } from '../../../session/session';
import { useCachedQuery } from '../../../offline/cache';
import { ReadStatus } from '../../../offline/read-status';
import { Page } from '../../../ui/page';
import { InfoPanel } from '../../../ui/info-panel';
import { ListEnd } from '../../../ui/list-end';
import { groupByDate } from '../../../ui/date-groups';
import { ApplicationListItem, PlaceholderItem, WaitingApplicationItem, type ApplicationListRow } from './application-list-item';
import { ListFilters } from './list-filters';
import { hasFilters, listSearch, readListQuery, type ListQuery } from './list-query';
import { fetchApplications } from '../applications-api';
import { useApplicationsNeedingAttention, usePendingCreates } from './list-device-reads';
import { applicationHref, resumeHref } from '../wizard/wizard-routes';
import '../../../ui/record-list.css';
import './list.css';

const APPLICATIONS_INFO_STEPS = [
  'A lawyer creates an application for a client. The client is invited by email to join by setting a password.',
  'The lawyer and the client complete the application journey and it is submitted.',
  'The provider reviews it and accepts or rejects it.',
  'The client reviews the contract and documents and obtains independent legal advice (fixed fee of £250 plus VAT).',
  'The provider confirms receipt of the certificate of advice, prepares the documents for electronic signature and notifies the client.',
  'The client signs electronically. Signing creates a loan.',
] as const;

/**
 * /applications (readApplications). The server scopes the rows to the caller; filters and the page
 * are in the address. Offline, the last copy of this very page is shown, marked with its time.
 */
export default function ApplicationsPage() {
  const user = useAtomValue(sessionUserAtom);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const query = useMemo(() => readListQuery(params), [params]);
  const key = `applications${listSearch(query)}`;
  const fetcher = useCallback(() => fetchApplications(query), [query]);
  const read = useCachedQuery(key, fetcher);
  const { data, error, loading: fetching } = read;
  const pending = usePendingCreates();
  const needingAttention = useApplicationsNeedingAttention();

  const setQuery = useCallback(
    (next: Partial<ListQuery>) => {
      void navigate(`${paths.applications.url()}${listSearch({ ...query, ...next })}`);
    },
    [navigate, query],
  );

  if (!user) return null;
  const canCreate = hasPermissions(user.role, ['createApplication']);
  const rows: ApplicationListRow[] = data?.items ?? [];
  const waiting = query.page === 1 ? pending : [];
  const loading = !data && !error;

  return (
    <Page
      title="Applications"
      actions={
        canCreate ? (
          <Link className="button button--primary" to={paths.newApplication.url()}>
            new application
          </Link>
        ) : null
      }
    >
      <ListFilters query={query} onChange={setQuery} />
      <ReadStatus read={read} />
      <div className="application-list" aria-busy={loading || fetching || undefined}>
        {waiting.length > 0 ? (
          <section className="application-group" aria-labelledby="applications-waiting">
            <h2 className="application-group__title" id="applications-waiting">
              Not on the server yet
            </h2>
            <ul className="application-group__items">
              {waiting.map((item) => (
                <WaitingApplicationItem
                  key={item.localId}
                  name={item.name}
                  surname={item.surname}
                  href={
                    item.refused ? paths.applicationStep.url({ id: item.localId, step: 'personal' }) : resumeHref(item.localId)
                  }
                  refused={item.refused}
                />
              ))}
            </ul>
          </section>
        ) : null}
        {loading ? (
          <ul className="application-group__items">
            {Array.from({ length: PAGE_SIZE }, (_, index) => (
              <PlaceholderItem key={index} />
            ))}
          </ul>
        ) : (
          groupByDate(rows, (row) => row.startDate).map(([group, items]) => (
            <section key={group} className="application-group" aria-label={group}>
              <h2 className="application-group__title">{group}</h2>
              <ul className="application-group__items">
                {items.map((row) => (
                  <ApplicationListItem
                    key={row.id}
                    row={row}
                    href={applicationHref(row, user.role)}
                    attentionHref={needingAttention.get(String(row.id))}
                  />
                ))}
              </ul>
            </section>
          ))
        )}
      </div>
      <ListEnd
        noun={{ one: 'application', other: 'applications' }}
        answer={data ?? null}
        rows={rows.length + waiting.length}
        page={query.page}
        filtered={hasFilters(query)}
        hrefFor={(page) => `${paths.applications.url()}${listSearch({ ...query, page })}`}
        clearHref={paths.applications.url()}
        nothingYet={<InfoPanel header="More info on applications" steps={APPLICATIONS_INFO_STEPS} />}
      />
    </Page>
  );
}
