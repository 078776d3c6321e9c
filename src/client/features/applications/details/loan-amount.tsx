import { useState, type FormEvent } from 'react';
import { amountMessage, errorMessages } from '../../../../shared/rules/error-codes';
import { formatMoney } from '../../../../shared/rules/formats';
import { loanAmountCode } from '../../../../shared/rules/money';
import { codeMessage } from '../../../api/failure';
import { enqueue, waitForResult } from '../../../offline/outbox';
import { Button } from '../../../ui/button';
import { useUnsavedMark } from '../../../ui/form-engine';
import { FormMessage } from '../../../ui/form-message';
import { useConfirm } from '../../../ui/modal-store';
import { MoneyField, parseNumberInput } from '../../../ui/number-field';
import { useToast } from '../../../ui/toast-store';
import { Link } from 'react-router-dom';
import { paths } from '../../../routing/paths';
import type { Application } from '../applications-api';
import { draftLoanAmountKey } from '../offline/review-mutations';
import '../offline/review-mutations';
import { useAmountRefusal, useQueuedReview } from './review-writes';

/** The draft loan amount: shown to staff, with 'update loan facility' while the record allows it. */
export function LoanAmount({
  application,
  editable,
  onChanged,
}: {
  application: Application;
  editable: boolean;
  onChanged: () => void;
}) {
  const queued = useQueuedReview(application.id).amount;
  const facility = (application as Partial<Application>).loanFacility ?? null;
  if (facility !== null) return <LoanFacility facility={facility} />;
  return (
    <section className="details-section" aria-labelledby="details-amount-title">
      <h2 id="details-amount-title" className="details-section__title">
        Loan amount
      </h2>
      <p className="details-amount">
        <span className="details-amount__label">Draft loan amount</span>{' '}
        <span className="details-amount__value">
          {application.loanAmount === null ? 'Not set yet' : formatMoney(application.loanAmount)}
        </span>
      </p>
      {queued !== undefined ? (
        <p className="details-notice" role="status">
          Your change to {formatMoney(queued)} is kept on this device and will be sent once you are back online.
        </p>
      ) : editable ? (
        <LoanAmountForm application={application} onChanged={onChanged} />
      ) : null}
    </section>
  );
}

/**
 * Once signed, the amount is the loan's facility: the signed credit and a variation waiting for the
 * client's signature, changed on the loan's page (docs/decisions.md, 513).
 */
function LoanFacility({ facility }: { facility: NonNullable<Application['loanFacility']> }) {
  return (
    <section className="details-section" aria-labelledby="details-amount-title">
      <h2 id="details-amount-title" className="details-section__title">
        Loan amount
      </h2>
      <p className="details-amount">
        <span className="details-amount__label">Signed facility</span>{' '}
        <span className="details-amount__value">{formatMoney(facility.amount)}</span>
      </p>
      {facility.pendingAmount === null ? null : (
        <p className="details-amount">
          <span className="details-amount__label">Pending variation</span>{' '}
          <span className="details-amount__value">{formatMoney(facility.pendingAmount)}</span>
        </p>
      )}
      <p>
        <Link to={paths.loan.url({ id: facility.loanId })}>Open loan</Link> to change it.
      </p>
    </section>
  );
}

/**
 * 'update loan facility': needs a value ('Required field'), asks first (decision 264's question),
 * and goes through the outbox (POST /loans/update with the applicationId, no loan yet). A refusal
 * brings the amount back with the server's message on the field.
 */
function LoanAmountForm({ application, onChanged }: { application: Application; onChanged: () => void }) {
  const confirm = useConfirm();
  const toast = useToast();
  const refusal = useAmountRefusal(application.id);
  const refused = refusal.draft?.status === 'rejected' ? refusal.draft : undefined;
  const [value, setValue] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  useUnsavedMark(value !== '');

  const code = loanAmountCode(value, 0);
  const serverCode = refused && value === '' ? (refused.serverCodes?.amount ?? null) : null;
  const shown = serverCode ?? (tried || value !== '' ? (code ?? null) : null);
  const error = shown ? amountMessage(shown) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setTried(true);
    const amount = parseNumberInput(value);
    if (code !== undefined || amount === undefined) return;
    if (!(await confirm(`Are you sure you want to update the loan amount to ${formatMoney(amount)}?`))) return;
    setBusy(true);
    setMessage(null);
    try {
      const id = await enqueue({
        kind: 'draftLoanAmount',
        applicationId: application.id,
        amount,
        draftKey: draftLoanAmountKey(application.id),
      });
      const result = await waitForResult(id);
      setValue('');
      setTried(false);
      if (result.status === 'done') {
        toast.notify('The loan amount has been updated.');
        onChanged();
      }
    } catch {
      setMessage(errorMessages.unhandled);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="details-amount-form" noValidate onSubmit={(event) => void submit(event)}>
      {refused && !refused.serverCodes?.amount ? (
        <div className="details-notice details-notice--warning" role="alert">
          <p>
            Your change to {formatMoney(refused.value.amount)} was not made: {codeMessage(refused.serverError ?? 'unhandled')}
          </p>
          <Button
            variant="secondary"
            onClick={() => {
              void refusal.clear();
              onChanged();
            }}
          >
            dismiss
          </Button>
        </div>
      ) : null}
      <MoneyField
        label="New loan amount"
        hint={refused?.serverCodes?.amount ? `Refused: ${formatMoney(refused.value.amount)}` : undefined}
        value={value}
        onValueChange={(next) => {
          setValue(next);
          if (refused) void refusal.clear();
        }}
        error={error}
      />
      <Button type="submit" busy={busy}>
        update loan facility
      </Button>
      <FormMessage message={message} />
    </form>
  );
}
