import { useState, type FormEvent } from 'react';
import { amountMessage } from '../../../../shared/rules/error-codes';
import { formatMoney } from '../../../../shared/rules/formats';
import { loanAmountCode } from '../../../../shared/rules/drawdown-request';
import { codeMessage } from '../../../api/failure';
import { useQueuedDecision, type QueuedDecision } from '../../../offline/queued-decision';
import { Button } from '../../../ui/button';
import { DecisionRefused, DecisionWaiting } from '../../../ui/decision-notice';
import { useUnsavedMark } from '../../../ui/form-engine';
import { FormMessage } from '../../../ui/form-message';
import { MoneyField, parseNumberInput } from '../../../ui/number-field';
import { useToast } from '../../../ui/toast-store';
import { Link } from 'react-router-dom';
import { paths } from '../../../routing/paths';
import type { Application } from '../applications-api';
import { draftLoanAmountKey } from '../offline/review-mutations';
import '../offline/review-mutations';
import { amountValue } from './review-writes';

type LoanAmountDecision = QueuedDecision<'draftLoanAmount', { amount: number }>;

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
  const decision = useQueuedDecision('draftLoanAmount', draftLoanAmountKey(application.id), { refused: amountValue, onChanged });
  const queued = decision.waiting?.amount;
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
        <DecisionWaiting what={`Your change to ${formatMoney(queued)}`} />
      ) : editable ? (
        <LoanAmountForm application={application} decision={decision} />
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
function LoanAmountForm({ application, decision }: { application: Application; decision: LoanAmountDecision }) {
  const toast = useToast();
  const refused = decision.refusal;
  const [value, setValue] = useState('');
  const [tried, setTried] = useState(false);
  useUnsavedMark(value !== '');

  const code = loanAmountCode(value, 0);
  const serverCode = refused && value === '' ? (refused.serverCodes?.amount ?? null) : null;
  const shown = serverCode ?? (tried || value !== '' ? (code ?? null) : null);
  const error = shown ? amountMessage(shown) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (decision.busy) return;
    setTried(true);
    const amount = parseNumberInput(value);
    if (code !== undefined || amount === undefined) return;
    const question = `Are you sure you want to update the loan amount to ${formatMoney(amount)}?`;
    const result = await decision.run({ applicationId: application.id, amount }, { question });
    if (result.status === 'declined' || result.status === 'failed') return;
    setValue('');
    setTried(false);
    if (result.status === 'done') toast.notify('The loan amount has been updated.');
  };

  return (
    <form className="details-amount-form" noValidate onSubmit={(event) => void submit(event)}>
      {refused && !refused.serverCodes?.amount ? (
        <DecisionRefused
          what={`Your change to ${formatMoney(refused.value.amount)}`}
          why={codeMessage(refused.serverError ?? 'unhandled')}
          onDismiss={() => void decision.dismiss()}
        />
      ) : null}
      <MoneyField
        label="New loan amount"
        hint={refused?.serverCodes?.amount ? `Refused: ${formatMoney(refused.value.amount)}` : undefined}
        value={value}
        onValueChange={(next) => {
          setValue(next);
          if (refused) void decision.dismiss();
        }}
        error={error}
      />
      <Button type="submit" busy={decision.busy !== null}>
        update loan facility
      </Button>
      <FormMessage message={decision.message} />
    </form>
  );
}
