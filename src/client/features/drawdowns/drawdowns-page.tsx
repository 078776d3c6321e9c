import { useCallback } from 'react';
import { Link } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { errorMessages } from '../../../shared/rules/error-codes';
import { formatDate, formatDateTime, formatMoney } from '../../../shared/rules/formats';
import { drawdownStatusLabels } from '../../../shared/rules/statuses';
import { useCachedQuery } from '../../offline/cache';
import { navTitle, paths } from '../../routing/paths';
import { sessionUserAtom } from '../../session/session';
import { InfoPanel } from '../../ui/info-panel';
import { OverviewPanel } from '../../ui/overview-panel';
import { Page } from '../../ui/page';
import { pageHref, usePageParam } from '../../ui/pagination';
import { ListEnd } from '../../ui/list-end';
import { StatusBadge } from '../../ui/status-badge';
import { LabelledAmount } from '../../ui/labelled-amount';
import { AttentionFlag } from '../../ui/attention-flag';
import { useDrawdownsNeedingAttention } from './offline/places';
import { fetchDrawdowns, fetchDrawdownsAggregate, type DrawdownListItem } from './drawdowns-api';
import { poundsLess } from '../../../shared/rules/money';
import './drawdowns.css';

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
        <StatusBadge kind="drawdown" status={item.status} label={drawdownStatusLabels[item.status]} />{' '}
        <span className="drawdown-card__date">{formatDate(item.date)}</span>
      </Link>
    </li>
  );
}

/**
 * /drawdowns: titled as in the menu ('Drawdown History', or 'Drawdowns' for lawyers). The server
 * scopes the drawdowns to the caller; the page is in the address; offline, the last copy of the
 * page is shown with its time.
 */
export default function DrawdownsPage() {
  const user = useAtomValue(sessionUserAtom);
  const page = usePageParam();
  const fetcher = useCallback(() => fetchDrawdowns(page), [page]);
  const { data, savedAt, fromCache, error, loading: fetching } = useCachedQuery(`drawdowns?page=${page}`, fetcher);
  const needingAttention = useDrawdownsNeedingAttention();
  if (!user) return null;
  const items = data?.items ?? [];
  const failed = !data && Boolean(error);

  return (
    <Page title={navTitle('drawdowns', user.role) || 'Drawdowns'}>
      {user.role === 'lawyer' ? null : <DrawdownsOverview />}
      <p className="list-note" role="status">
        {fromCache && savedAt ? `Saved copy from ${formatDateTime(savedAt)}` : ''}
        {failed ? (navigator.onLine ? errorMessages.unhandled : errorMessages.offline) : ''}
      </p>
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
        page={page}
        filtered={false}
        hrefFor={(next) => pageHref(paths.drawdowns.url(), next)}
        clearHref={paths.drawdowns.url()}
        nothingYet={<InfoPanel header="More info on drawdowns" steps={DRAWDOWNS_INFO_STEPS} />}
      />
    </Page>
  );
}
