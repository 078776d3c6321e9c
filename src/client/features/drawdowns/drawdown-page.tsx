import { useCallback, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { formatDate, formatMoney } from '../../../shared/rules/formats';
import {
  clientDeclarationKeys,
  clientDeclarationLabels,
  lawyerDeclarationKeys,
  lawyerDeclarationLabels,
} from '../../../shared/rules/declarations';
import { drawdownFieldLabels, materialChangesText } from '../../../shared/rules/loan-labels';
import { parseRecordId } from '../../../shared/rules/record-id';
import type { DrawdownStatus } from '../../../shared/rules/statuses';
import { ApiResponseError } from '../../api/failure';
import { useCachedQuery } from '../../offline/cache';
import { ReadStatus } from '../../offline/read-status';
import NotFoundPage from '../../routing/not-found-page';
import { paths } from '../../routing/paths';
import { sessionUserAtom } from '../../session/session';
import { Page } from '../../ui/page';
import { PageSpinner } from '../../ui/spinner';
import { LastReminder } from '../../ui/last-reminder';
import { StatusBadge } from '../../ui/status-badge';
import { DrawdownActions } from './drawdown-actions';
import { poundsLess } from '../../../shared/rules/money';
import { fetchDrawdown, type Drawdown } from './drawdowns-api';
import './drawdowns.css';

/** What a lawyer sees once a request is made (spec section 4). */
export const REQUESTED_TEXT =
  "We'll review your request and confirm it in the next 48 hours. Your client can then review and approve your request.";

function isNotFound(error: unknown): boolean {
  return error instanceof ApiResponseError && (error.status === 404 || error.status === 403);
}

function drawdownTransitions(drawdown: Drawdown): DrawdownStatus[] {
  // A saved copy written by an earlier version may lack the abilities: it offers nothing then.
  return (drawdown as Partial<Drawdown>).abilities?.transitions ?? [];
}

function Rows({ rows }: { rows: readonly [string, ReactNode][] }) {
  return (
    <dl className="drawdown-fields">
      {rows.map(([label, value]) => (
        <div key={label} className="drawdown-fields__row">
          <dt className="drawdown-fields__label">{label}</dt>
          <dd className="drawdown-fields__value">{value === '' || value === null ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

function answerText(value: boolean | undefined): string {
  return value === undefined ? '—' : value ? 'True' : 'False';
}

function LawyerDeclarations({ drawdown }: { drawdown: Drawdown }) {
  const declarations = drawdown.lawyerDeclarations as unknown as Record<string, boolean | string | undefined>;
  return (
    <section className="drawdown-section" aria-labelledby="lawyer-declarations-title">
      <h2 id="lawyer-declarations-title" className="drawdown-section__title">
        Lawyer declarations
      </h2>
      <ul className="drawdown-declaration-list">
        {lawyerDeclarationKeys.map((key) => {
          const details = declarations[`${key}Details`];
          return (
            <li key={key} className="drawdown-declaration-list__item">
              <p className="drawdown-declaration-list__statement">{lawyerDeclarationLabels[key]}</p>
              <p className="drawdown-declaration-list__answer">{answerText(declarations[key] as boolean | undefined)}</p>
              {typeof details === 'string' && details ? <p className="drawdown-declaration-list__details">{details}</p> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function ClientDeclarations({ drawdown }: { drawdown: Drawdown }) {
  const declarations = drawdown.clientDeclarations;
  if (!declarations) return null;
  return (
    <section className="drawdown-section" aria-labelledby="client-declarations-title">
      <h2 id="client-declarations-title" className="drawdown-section__title">
        Client declarations
      </h2>
      <ul className="drawdown-declaration-list">
        {clientDeclarationKeys.map((key) => (
          <li key={key} className="drawdown-declaration-list__item">
            <p className="drawdown-declaration-list__statement">{clientDeclarationLabels[key]}</p>
            <p className="drawdown-declaration-list__answer">{answerText(declarations[key])}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * /drawdowns/:id: every field of the request, the loan's figures, the declarations, and what the
 * caller may do now (from the record's abilities; the lawyer who requested it may 'edit request'
 * while it is requested). Opened offline, the saved copy is shown with its
 * time; decisions made on it are queued and sent once back online.
 */
export default function DrawdownPage() {
  const user = useAtomValue(sessionUserAtom);
  const { id: param } = useParams();
  const id = parseRecordId(param);
  const fetcher = useCallback(() => fetchDrawdown(id ?? 0), [id]);
  const read = useCachedQuery(id === null ? null : `drawdown:${id}`, fetcher);
  const { data: drawdown, error, fromCache, reload } = read;

  if (id === null || (!drawdown && isNotFound(error))) return <NotFoundPage />;
  if (!user) return null;
  if (!drawdown) {
    return <Page title="Drawdown">{error ? <ReadStatus read={read} /> : <PageSpinner />}</Page>;
  }

  return (
    <Page title="Drawdown">
      <ReadStatus read={read} />
      {user.role === 'lawyer' && drawdown.status === 'requested' ? <p className="drawdown-notice">{REQUESTED_TEXT}</p> : null}
      <div className="drawdown-head">
        <p className="drawdown-head__amount">{formatMoney(drawdown.amount)}</p>
        <StatusBadge kind="drawdown" status={drawdown.status} recordStatus />
      </div>
      <p className="drawdown-head__who">
        {drawdown.firstName} {drawdown.lastName}
        {drawdown.caseRef ? ` · ${drawdown.caseRef}` : ''} ·{' '}
        <Link className="touch-link" to={paths.loan.url({ id: drawdown.loanId })}>
          Open loan
        </Link>
      </p>
      <LastReminder reminder={drawdown.lastReminder} />
      {(drawdown as Partial<Drawdown>).abilities?.edit ? (
        <p className="drawdown-edit">
          <Link className="button button--secondary" to={paths.drawdownEdit.url({ id: drawdown.id })}>
            edit request
          </Link>
        </p>
      ) : null}
      <Rows
        rows={[
          ['Amount', formatMoney(drawdown.amount)],
          ['Date', formatDate(drawdown.date)],
          ['Total credit', formatMoney(drawdown.loanAmount)],
          ['Credit available', formatMoney(poundsLess(drawdown.loanAmount, drawdown.totalDrawdownsAmount))],
          ['Invoice numbers', drawdown.invoiceNumber],
          [drawdownFieldLabels.stageOfCase, drawdown.stageOfCase],
          ['Material changes', materialChangesText(drawdown.materialChanges)],
          ...(drawdown.materialChanges
            ? ([[drawdownFieldLabels.materialChangesDetails, drawdown.materialChangesDetails ?? '']] as [string, ReactNode][])
            : []),
          [drawdownFieldLabels.nextHearingDate, drawdown.nextHearingDate],
          [drawdownFieldLabels.finalOrderDate, drawdown.finalOrderDate],
          [drawdownFieldLabels.reaplyAssets, drawdown.reaplyAssets],
          [drawdownFieldLabels.expectedRepaymentDate, drawdown.expectedRepaymentDate],
        ]}
      />
      <DrawdownActions
        drawdownId={drawdown.id}
        transitions={drawdownTransitions(drawdown)}
        offlineCopy={fromCache}
        onChanged={reload}
      />
      <LawyerDeclarations drawdown={drawdown} />
      <ClientDeclarations drawdown={drawdown} />
    </Page>
  );
}
