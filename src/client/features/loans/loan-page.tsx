import { useCallback, useMemo, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { formatDate, formatMoney } from '../../../shared/rules/formats';
import { drawdownRequestHoldNotices, loanPageTitles } from '../../../shared/rules/loan-labels';
import { parseRecordId } from '../../../shared/rules/record-id';
import { drawdownRequestHold, drawdownRequestRoles } from '../../../shared/rules/transitions';
import { ApiResponseError } from '../../api/failure';
import { useOnline } from '../../api/connection';
import { useCachedQuery } from '../../offline/cache';
import { ReadStatus, readPartMessage } from '../../offline/read-status';
import NotFoundPage from '../../routing/not-found-page';
import { paths } from '../../routing/paths';
import { sessionUserAtom } from '../../session/session';
import { Page } from '../../ui/page';
import '../../ui/notice.css';
import { PageSpinner } from '../../ui/spinner';
import { pageHref, usePageParam } from '../../ui/pagination';
import { ListEnd } from '../../ui/list-end';
import { StatusBadge } from '../../ui/status-badge';
import { LabelledAmount } from '../../ui/labelled-amount';
import { DrawdownRequestForm } from './drawdown-request/drawdown-request-form';
import { newRequestTarget } from './drawdown-request/request-target';
import { loanAbilities } from './loan-abilities';
import { LoanStateActions, RequestBalanceButton } from './loan-actions';
import { LoanAmountForm } from './loan-amount-form';
import { creditAwaitingSignature, pendingAmountOf } from './loan-credit';
import { FacilityHistory, VariationToSign } from './loan-facility';
import { loanReference } from '../../../shared/rules/loan-reference';
import { wirePence } from '../../../shared/rules/money';
import { fetchLoan, fetchLoanDrawdowns, type Loan } from './loans-api';
import './loans.css';

function isNotFound(error: unknown): boolean {
  return error instanceof ApiResponseError && (error.status === 404 || error.status === 403);
}

function Figures({ loan, client }: { loan: Loan; client: boolean }) {
  // The credit offered is what the client signed for; a raise waiting for their signature shows beside it (decision 515).
  const pending = pendingAmountOf(loan);
  const figures: [string, ReactNode][] = [
    ['Credit available', formatMoney(loan.creditAvailable)],
    ['Credit offered', formatMoney(loan.amount)],
    ...(pending === null
      ? []
      : ([
          [
            'Pending variation',
            <>
              {formatMoney(pending)}{' '}
              <span className="loan-figures__note">
                {client ? 'waiting for your signature' : 'waiting for the client’s signature'}
              </span>
            </>,
          ],
        ] as [string, ReactNode][])),
    ['Total drawdown', formatMoney(loan.totalDrawdowns)],
    ['Date', formatDate(loan.date)],
    ['Reference', loanReference(loan.id)],
    ['Status', <StatusBadge key="status" kind="loan" status={loan.state} recordStatus />],
  ];
  return (
    <dl className="loan-figures">
      {figures.map(([label, value]) => (
        <div key={label}>
          <dt className="loan-figures__label">{label}</dt>
          <dd className="loan-figures__value">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The loan's drawdowns, newest first, each linking to its page. */
function LoanDrawdowns({ loanId, page }: { loanId: number; page: number }) {
  const fetcher = useCallback(() => fetchLoanDrawdowns(loanId, page), [loanId, page]);
  const read = useCachedQuery(`loan:${loanId}:drawdowns?page=${page}`, fetcher);
  const { data } = read;
  const missing = readPartMessage(read, useOnline());
  const items = data?.items ?? [];
  return (
    <section className="loan-section" aria-labelledby="loan-drawdowns-title">
      <h2 id="loan-drawdowns-title" className="loan-section__title">
        Drawdowns
      </h2>
      {missing ? <p className="list-note">{missing}</p> : null}
      {items.length > 0 ? (
        <ul className="loan-group__items">
          {items.map((drawdown) => (
            <li key={drawdown.id} className="loan-item">
              <Link className="loan-item__link loan-item__link--drawdown" to={paths.drawdown.url({ id: drawdown.id })}>
                <LabelledAmount className="loan-item__name labelled-amount--start" label="Amount" pounds={drawdown.amount} />{' '}
                <span className="loan-item__ref">Drawdown {drawdown.id}</span>{' '}
                <StatusBadge kind="drawdown" status={drawdown.status} />{' '}
                <span className="loan-item__date">{formatDate(drawdown.date)}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <ListEnd
        noun={{ one: 'drawdown', other: 'drawdowns' }}
        answer={data ?? null}
        rows={items.length}
        page={page}
        filtered={false}
        hrefFor={(next) => pageHref(paths.loan.url({ id: loanId }), next)}
        clearHref={paths.loan.url({ id: loanId })}
        nothingYet={<p>No drawdowns yet.</p>}
        pagerLabel="Pages of drawdowns"
      />
    </section>
  );
}

/**
 * /loans/:id, titled by the loan's status ('Open Loan' while open): the loan's figures, reference
 * and status, what the caller may do with it (from the record's abilities), and its drawdowns. The
 * loan's lawyer finds the request form, or in its place why the loan takes no request (blocked,
 * paid, closed, no credit left; docs/decisions.md (415)). Opened offline, the saved copy is shown
 * with its time; decisions made on it are queued and sent once back online.
 */
export default function LoanPage() {
  const user = useAtomValue(sessionUserAtom);
  const { id: param } = useParams();
  const id = parseRecordId(param);
  const page = usePageParam();
  const fetcher = useCallback(() => fetchLoan(id ?? 0), [id]);
  const query = useCachedQuery(id === null ? null : `loan:${id}`, fetcher);
  const { data: loan, error, fromCache, reload } = query;
  const requestTarget = useMemo(() => newRequestTarget(id ?? 0), [id]);

  if (id === null || (!loan && isNotFound(error))) return <NotFoundPage />;
  if (!user) return null;
  if (!loan) {
    return <Page title="Loan">{error ? <ReadStatus read={query} /> : <PageSpinner />}</Page>;
  }
  const abilities = loanAbilities(loan);
  // The lawyer's request form is there, or why it is not (the loan's status, or no credit left).
  const requests = drawdownRequestRoles.includes(user.role);
  const awaiting = creditAwaitingSignature(loan);
  const hold = abilities.requestDrawdown
    ? null
    : drawdownRequestHold(loan.state, wirePence(loan.creditAvailable), wirePence(awaiting));

  return (
    <Page title={loanPageTitles[loan.state]}>
      <ReadStatus read={query} />
      <p className="loan-client">
        {loan.clientName} {loan.clientSurname}
        {loan.caseRef ? <span className="loan-client__case"> · {loan.caseRef}</span> : null}
      </p>
      <Figures loan={loan} client={user.role === 'customer'} />
      {requests && hold ? (
        <p className="notice loan-notice" role="status">
          {drawdownRequestHoldNotices[hold]}
        </p>
      ) : null}
      {abilities.signVariation ? <VariationToSign loan={loan} /> : null}
      <LoanStateActions loan={loan} abilities={abilities} offlineCopy={fromCache} onChanged={reload} />
      {abilities.updateAmount ? (
        <section className="loan-section" aria-labelledby="loan-amount-title">
          <h2 id="loan-amount-title" className="loan-section__title">
            Loan amount
          </h2>
          <LoanAmountForm loan={loan} onSaved={reload} />
        </section>
      ) : null}
      {abilities.requestBalance ? <RequestBalanceButton loanId={loan.id} /> : null}
      {abilities.requestDrawdown || (requests && hold) ? (
        <DrawdownRequestForm
          target={requestTarget}
          applicationId={loan.applicationId}
          creditAvailable={loan.creditAvailable}
          creditAwaitingSignature={awaiting}
          held={!abilities.requestDrawdown}
          onRefused={reload}
        />
      ) : null}
      <LoanDrawdowns loanId={loan.id} page={page} />
      <FacilityHistory loanId={loan.id} revision={`${loan.amount}:${pendingAmountOf(loan) ?? ''}`} />
    </Page>
  );
}
