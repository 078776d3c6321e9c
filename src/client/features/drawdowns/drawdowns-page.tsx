import { useCallback, useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { formatDate, formatMoney } from '../../../shared/rules/formats';
import { drawdownStatuses, drawdownStatusLabels, type DrawdownStatus } from '../../../shared/rules/statuses';
import { useCachedQuery } from '../../offline/cache';
import { ReadStatus } from '../../offline/read-status';
import { navTitle, paths } from '../../routing/paths';
import { sessionUserAtom } from '../../session/session';
import { InfoPanel } from '../../ui/info-panel';
import { OverviewPanel } from '../../ui/overview-panel';
import { Page } from '../../ui/page';
import { ListFilters } from '../../ui/list-filters';
import { hasFilters, listSearch, readListQuery, type ListQuery } from '../../ui/list-query';
import { ListEnd } from '../../ui/list-end';
import { StatusBadge } from '../../ui/status-badge';
import { LabelledAmount } from '../../ui/labelled-amount';
import { AttentionFlag } from '../../ui/attention-flag';
import { useDrawdownsNeedingAttention } from './offline/places';
import { fetchDrawdowns, fetchDrawdownsAggregate, type DrawdownListItem } from './drawdowns-api';
import { poundsLess } from '../../../shared/rules/money';
import '../../ui/record-list.css';
import './drawdowns.css';

/** The statuses by the spec's words (never their codes), in the order a drawdown goes through them. */
const statusOptions = drawdownStatuses.map((status) => ({ value: status, label: drawdownStatusLabels[status] }));

const DRAWDOWNS_INFO_STEPS = [
  'The lawyer requests a drawdown from the loan to pay fees.',
  'The provider’s staff review the request and approve or reject it.',
  'The client approves it by electronic signature, answering five declarations.',
  'The provider pays it by bank transfer.',
] as const;

/** 'Already drawndown', 'Available to drawdown', 'Drawdowns paid', 'Drawdowns pending' (hidden from lawyers). */
function DrawdownsOverview() {
  const fetcher = useCallback(() => fetchDrawdownsAggregate(), []);
  const { data } = useCachedQuery('drawdowns-aggregate', fetcher);
  return (
    <OverviewPanel
      title="Drawdowns overview"
      stats={[
        { label: 'Already drawndown', value: data ? formatMoney(data.amount) : undefined },
        { label: 'Available to drawdown', value: data ? formatMoney(data.restLoansAmount) : undefined },
        { label: 'Drawdowns paid', value: data ? formatMoney(data.amountPaid) : undefined },
        { label: 'Drawdowns pending', value: data ? formatMoney(poundsLess(data.amount, data.amountPaid)) : undefined },
      ]}
    />
  );
}

/** One drawdown: name, id, case reference, amount, status and date (spec section 2). */
function DrawdownCard({ item, flagged }: { item: DrawdownListItem; flagged: boolean }) {
  return (
    <li className="drawdown-card">
      <Link className="drawdown-card__link" to={paths.drawdown.url({ id: item.id })}>
        <span className="drawdown-card__name">
          {item.firstName} {item.lastName}
          {flagged ? <AttentionFlag /> : null}
        </span>{' '}
        <span className="drawdown-card__id">Drawdown {item.id}</span>{' '}
        <span className="drawdown-card__case">{item.caseRef ?? ''}</span>{' '}
        <LabelledAmount className="drawdown-card__amount" label="Amount" pounds={item.amount} />{' '}
        <StatusBadge kind="drawdown" status={item.status} /> <span className="drawdown-card__date">{formatDate(item.date)}</span>
      </Link>
    </li>
  );
}

/**
 * /drawdowns: titled as in the menu ('Drawdown History', or 'Drawdowns' for lawyers). The server
 * scopes the drawdowns to the caller; the status filter, the search (client or case) and the page
 * are in the address, as on the other lists, so staff keep their queue ('requested') bookmarked
 * (docs/decisions.md (421)); offline, the last copy of this very page is shown with its time.
 */
export default function DrawdownsPage() {
  const user = useAtomValue(sessionUserAtom);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const query = useMemo(() => readListQuery(params, drawdownStatuses), [params]);
  const fetcher = useCallback(() => fetchDrawdowns(query), [query]);
  const read = useCachedQuery(`drawdowns${listSearch(query)}`, fetcher);
  const { data, error, loading: fetching } = read;
  const needingAttention = useDrawdownsNeedingAttention();
  const setQuery = useCallback(
    (next: Partial<ListQuery<DrawdownStatus>>) => void navigate(`${paths.drawdowns.url()}${listSearch({ ...query, ...next })}`),
    [navigate, query],
  );
  if (!user) return null;
  const items = data?.items ?? [];

  return (
    <Page title={navTitle('drawdowns', user.role) || 'Drawdowns'}>
      {user.role === 'lawyer' ? null : <DrawdownsOverview />}
      <ListFilters query={query} onChange={setQuery} statusOptions={statusOptions} searchPlaceholder="Name or case reference" />
      <ReadStatus read={read} />
      <div className="drawdown-list" aria-busy={(!data && !error) || fetching || undefined}>
        {items.length > 0 ? (
          <ul className="drawdown-list__items">
            {items.map((item) => (
              <DrawdownCard key={item.id} item={item} flagged={needingAttention.has(String(item.id))} />
            ))}
          </ul>
        ) : null}
      </div>
      <ListEnd
        noun={{ one: 'drawdown', other: 'drawdowns' }}
        answer={data ?? null}
        rows={items.length}
        page={query.page}
        filtered={hasFilters(query)}
        hrefFor={(page) => `${paths.drawdowns.url()}${listSearch({ ...query, page })}`}
        clearHref={paths.drawdowns.url()}
        nothingYet={<InfoPanel header="More info on drawdowns" steps={DRAWDOWNS_INFO_STEPS} />}
      />
    </Page>
  );
}
