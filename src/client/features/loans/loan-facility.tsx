import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessages } from '../../../shared/rules/error-codes';
import { formatDateTime, formatMoney } from '../../../shared/rules/formats';
import { poundsLess } from '../../../shared/rules/money';
import { api } from '../../api/client';
import { isOnline } from '../../api/connection';
import { callApi, codeMessage, failureMessage } from '../../api/failure';
import { useCachedQuery } from '../../offline/cache';
import { openAddress } from '../../routing/portal-address';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { pendingAmountOf } from './loan-credit';
import { fetchFacilityHistory, type FacilityChange, type Loan } from './loans-api';

/** Our words for the client's signing of a variation (docs/decisions.md, 515). */
export const VARIATION_TEXT = {
  title: 'Variation to sign',
  sign: 'sign variation',
  needsConnection: 'Signing needs a connection. Please try again once you are back online.',
  historyTitle: 'Facility history',
} as const;

/**
 * The client's notice of a raised facility waiting for their signature, with 'sign variation': the
 * signing page of the application's documents (the same code and sign steps), opened by
 * POST /loans/{id}/variation/sign. It needs a connection, and is never queued: a signature is
 * made at a moment, with that moment's code.
 */
export function VariationToSign({ loan }: { loan: Loan }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const pending = pendingAmountOf(loan);
  if (pending === null) return null;
  const extra = poundsLess(pending, loan.amount);

  const sign = async () => {
    if (busy) return;
    setMessage(null);
    if (!isOnline()) return setMessage(VARIATION_TEXT.needsConnection);
    setBusy(true);
    try {
      const outcome = await callApi(() => api.POST('/loans/{id}/variation/sign', { params: { path: { id: loan.id } } }));
      if (outcome.ok) {
        openAddress(navigate, outcome.data.envelopUrl);
        return;
      }
      setMessage(
        outcome.kind === 'offline'
          ? VARIATION_TEXT.needsConnection
          : outcome.status === 409
            ? codeMessage(outcome.code)
            : failureMessage(outcome),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="loan-section loan-variation" aria-labelledby="loan-variation-title">
      <h2 id="loan-variation-title" className="loan-section__title">
        {VARIATION_TEXT.title}
      </h2>
      <p>
        {`The credit of your loan is to rise from ${formatMoney(loan.amount)} to ${formatMoney(pending)}. ` +
          `Please read and sign the variation of your Credit Agreement: the extra ${formatMoney(extra)} can be drawn once you have signed it.`}
      </p>
      <Button busy={busy} onClick={() => void sign()}>
        {VARIATION_TEXT.sign}
      </Button>
      <FormMessage message={message} />
    </section>
  );
}

const who: Record<NonNullable<FacilityChange['by']>, string> = {
  provider: 'the provider',
  client: 'the client',
  lawyer: 'the lawyer',
};

/** One change of the facility in words (our wording: docs/decisions.md, 514). */
export function facilityChangeText(change: FacilityChange): string {
  const money = (pounds: number | null) => (pounds === null ? '—' : formatMoney(pounds));
  switch (change.event) {
    case 'signed':
      return `Signed by the client: ${money(change.amount)}`;
    case 'variationRequested':
      return change.previousPendingAmount === null
        ? `Raised to ${money(change.pendingAmount)}, waiting for the client’s signature`
        : `Raised to ${money(change.pendingAmount)}, waiting for the client’s signature (replaces the variation to ${money(change.previousPendingAmount)})`;
    case 'variationSigned':
      return `Variation signed by the client: ${money(change.amount)}`;
    case 'lowered': {
      const withdrawn =
        change.previousPendingAmount === null ? '' : `; the variation to ${money(change.previousPendingAmount)} is withdrawn`;
      return change.amount === change.previousAmount
        ? `Kept at the signed ${money(change.amount)}${withdrawn}`
        : `Lowered to ${money(change.amount)}${withdrawn}`;
    }
    case 'variationWithdrawn':
      return `The variation to ${money(change.previousPendingAmount)} is withdrawn: the loan is no longer drawn on`;
    case 'changed':
      return `Changed from ${money(change.previousAmount)} to ${money(change.amount)}`;
    case 'restated':
      return change.pendingAmount === null
        ? `Restated to the signed ${money(change.amount)}`
        : `Restated to the signed ${money(change.amount)}; ${money(change.pendingAmount)} waits for the client’s signature`;
  }
}

function byline(change: FacilityChange): string {
  const when = formatDateTime(change.at);
  if (change.by === null) return when;
  return `${when} · by ${change.byName ?? who[change.by]}`;
}

/**
 * Every change of the loan's facility, newest first (GET /loans/{id}/facility-history); fetched
 * again whenever the loan's figures change, and opened offline from the saved copy.
 */
export function FacilityHistory({ loanId, revision }: { loanId: number; revision: string }) {
  const fetcher = useCallback(() => fetchFacilityHistory(loanId), [loanId]);
  const { data, error, reload } = useCachedQuery(`loan:${loanId}:facility`, fetcher);
  const seen = useRef(revision);
  useEffect(() => {
    if (seen.current === revision) return;
    seen.current = revision;
    reload();
  }, [revision, reload]);
  const items = data?.items ?? [];
  return (
    <section className="loan-section" aria-labelledby="loan-facility-title">
      <h2 id="loan-facility-title" className="loan-section__title">
        {VARIATION_TEXT.historyTitle}
      </h2>
      {!data && error ? <p className="list-note">{errorMessages.offline}</p> : null}
      {data && items.length === 0 ? <p>No changes yet.</p> : null}
      {items.length > 0 ? (
        <ol className="loan-history">
          {items.map((change) => (
            <li key={change.id} className="loan-history__item">
              <span className="loan-history__text">{facilityChangeText(change)}</span>
              <span className="loan-history__when">{byline(change)}</span>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
