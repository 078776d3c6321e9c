import { useCallback, useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { isStaff } from '../../../shared/rules/permissions';
import { formatDate, formatMoney } from '../../../shared/rules/formats';
import { loanStatuses, type LoanStatus } from '../../../shared/rules/statuses';
import { loanStatusLabels } from '../../../shared/rules/loan-labels';
import { navTitle, paths } from '../../routing/paths';
import { sessionUserAtom } from '../../session/session';
import { useCachedQuery } from '../../offline/cache';
import { ReadStatus } from '../../offline/read-status';
import { Page } from '../../ui/page';
import { InfoPanel } from '../../ui/info-panel';
import { ListEnd } from '../../ui/list-end';
import { OverviewPanel } from '../../ui/overview-panel';
import { StatusBadge } from '../../ui/status-badge';
import { LabelledAmount } from '../../ui/labelled-amount';
import { AttentionFlag } from '../../ui/attention-flag';
import { useLoansNeedingAttention } from './offline/places';
import { groupByDate } from '../../ui/date-groups';
import { ListFilters } from '../../ui/list-filters';
import { hasFilters, listSearch, readListQuery, type ListQuery } from '../../ui/list-query';
import { fetchLoans, fetchLoansAggregate, type Loan } from './loans-api';
import { ExtractDatabaseButton } from './extract-database';
import { loanReference } from '../../../shared/rules/loan-reference';
import { poundsLess } from '../../../shared/rules/money';
import '../../ui/record-list.css';
import './loans.css';

export const LOANS_INFO_STEPS = [
  'A signed application creates a loan. Credit available is the credit offered minus the drawdowns taken.',
  'The lawyer requests drawdowns from the loan to pay fees.',
  'The provider’s staff review each request.',
  'The client approves it by electronic signature.',
  'The provider pays it by bank transfer.',
] as const;

const statusOptions = loanStatuses.map((status) => ({ value: status, label: loanStatusLabels[status] }));

function LoanItem({ loan, flagged }: { loan: Loan; flagged: boolean }) {
  return (
    <li className="loan-item">
      <Link className="loan-item__link" to={paths.loan.url({ id: loan.id })}>
        {/* Spaces between the parts: the link's accessible name reads as words. */}
        <span className="loan-item__name">
          {loan.clientName} {loan.clientSurname}
          {flagged ? <AttentionFlag /> : null}
        </span>{' '}
        <span className="loan-item__ref">{loanReference(loan.id)}</span>{' '}
        <span className="loan-item__case">{loan.caseRef ?? ''}</span>{' '}
        <LabelledAmount className="loan-item__credit" label="Credit available" pounds={loan.creditAvailable} />{' '}
        <StatusBadge kind="loan" status={loan.state} /> <span className="loan-item__date">{formatDate(loan.date)}</span>
      </Link>
    </li>
  );
}

function PlaceholderItem() {
  return (
    <li className="loan-item loan-item--placeholder" aria-hidden="true">
      <span className="loan-item__link">
        <span className="loan-item__name placeholder-text" />
        <span className="loan-item__ref placeholder-text" />
      </span>
    </li>
  );
}

/** 'All loans overview' (every role but the lawyer): GET /loans/aggregate over the caller's loans. */
function LoansOverview({ staff }: { staff: boolean }) {
  const fetcher = useCallback(() => fetchLoansAggregate(), []);
  const { data } = useCachedQuery('loans-aggregate', fetcher);
  return (
    <OverviewPanel
      title="All loans overview"
      stats={[
        { label: 'Total credit offered', value: data ? formatMoney(data.loansSum) : undefined },
        { label: 'Credit available', value: data ? formatMoney(poundsLess(data.loansSum, data.totalDrawdowns)) : undefined },
        { label: 'Number of loans', value: data ? String(data.loansCount) : undefined },
        { label: 'Total drawdowns', value: data ? formatMoney(data.totalDrawdowns) : undefined },
      ]}
    >
      {staff ? <ExtractDatabaseButton /> : null}
    </OverviewPanel>
  );
}

/**
 * /loans: titled as in the menu ('Request Drawdown', or 'Loans' for lawyers). The server scopes the
 * loans to the caller; filters and the page are in the address; offline, the last copy of this very
 * page is shown with its time.
 */
export default function LoansPage() {
  const user = useAtomValue(sessionUserAtom);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const query = useMemo(() => readListQuery(params, loanStatuses), [params]);
  const fetcher = useCallback(() => fetchLoans(query), [query]);
  const read = useCachedQuery(`loans${listSearch(query)}`, fetcher);
  const { data, error, loading: fetching } = read;
  const needingAttention = useLoansNeedingAttention();

  const setQuery = useCallback(
    (next: Partial<ListQuery<LoanStatus>>) => void navigate(`${paths.loans.url()}${listSearch({ ...query, ...next })}`),
    [navigate, query],
  );

  if (!user) return null;
  const rows = data?.items ?? [];
  const loading = !data && !error;

  return (
    <Page title={navTitle('loans', user.role)}>
      {user.role === 'lawyer' ? null : <LoansOverview staff={isStaff(user.role)} />}
      <ListFilters query={query} onChange={setQuery} statusOptions={statusOptions} searchPlaceholder="Name or case reference" />
      <ReadStatus read={read} />
      <div className="loan-list" aria-busy={loading || fetching || undefined}>
        {loading ? (
          <ul className="loan-group__items">
            {Array.from({ length: 3 }, (_, index) => (
              <PlaceholderItem key={index} />
            ))}
          </ul>
        ) : (
          groupByDate(rows, (loan) => loan.date).map(([group, items]) => (
            <section key={group} className="loan-group" aria-label={group}>
              <h2 className="loan-group__title">{group}</h2>
              <ul className="loan-group__items">
                {items.map((loan) => (
                  <LoanItem key={loan.id} loan={loan} flagged={needingAttention.has(String(loan.id))} />
                ))}
              </ul>
            </section>
          ))
        )}
      </div>
      <ListEnd
        noun={{ one: 'loan', other: 'loans' }}
        answer={data ?? null}
        rows={rows.length}
        page={query.page}
        filtered={hasFilters(query)}
        hrefFor={(page) => `${paths.loans.url()}${listSearch({ ...query, page })}`}
        clearHref={paths.loans.url()}
        nothingYet={<InfoPanel header="More info on loans" steps={LOANS_INFO_STEPS} />}
      />
    </Page>
  );
}
