import { useRef, useState, type FormEvent } from 'react';
import { amountMessage } from '../../../shared/rules/error-codes';
import { formatMoney } from '../../../shared/rules/formats';
import { api } from '../../api/client';
import { callApi, codeMessage, failureMessage } from '../../api/failure';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useConfirm } from '../../ui/modal-store';
import { MoneyField, parseNumberInput } from '../../ui/number-field';
import { useToast } from '../../ui/toast-store';
import { useUnsavedMark } from '../../ui/form-engine';
import { facilityChange } from '../../../shared/rules/credit';
import { loanAmountCode } from '../../../shared/rules/drawdown-request';
import { toPence, wirePence } from '../../../shared/rules/money';
import { pendingAmountOf } from './loan-credit';
import type { Loan } from './loans-api';

/** What the confirmation adds for a raise: the client signs before more can be drawn. */
function variationNote(signed: number): string {
  return `The client will be asked to sign a variation before more than ${formatMoney(signed)} can be drawn.`;
}

/** The signed credit, a pending one, and the floor. */
function amountHint(loan: Loan): string {
  const waiting = pendingAmountOf(loan);
  const pending = waiting === null ? '' : `, ${formatMoney(waiting)} waiting for the client’s signature`;
  return (
    `Signed ${formatMoney(loan.amount)}${pending}; at least ${formatMoney(loan.totalDrawdowns)} (already drawn). ` +
    'Above the signed credit, the client is asked to sign a variation.'
  );
}

/**
 * Staff's loan amount edit while the loan is open: a number that is not below the total drawn
 * ('Is less than already drawdowned amount'); 'update loan facility' is disabled while the amount is
 * empty or invalid, and asks first. It needs the server (the total drawn may have moved). A figure
 * above the signed credit is a variation the client is asked to sign; the question and the notice
 * say so (docs/decisions.md, 508, 515).
 */
export function LoanAmountForm({ loan, onSaved }: { loan: Loan; onSaved: () => void }) {
  const confirm = useConfirm();
  const toast = useToast();
  const formRef = useRef<HTMLFormElement>(null);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [serverCode, setServerCode] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useUnsavedMark(value !== '');

  const amount = parseNumberInput(value);
  const facility = {
    signedPence: wirePence(loan.amount),
    pendingPence: pendingAmountOf(loan) === null ? null : wirePence(pendingAmountOf(loan)!),
  };
  // The shared check the server makes again: above 0, pence at most, never below what is drawn.
  const code = value.trim() === '' ? undefined : loanAmountCode(value, wirePence(loan.totalDrawdowns));
  const invalid = amount === undefined || code !== undefined;
  const shown = serverCode ?? code;
  const error = shown ? amountMessage(shown) : null;

  const variation = amount !== undefined && code === undefined && facilityChange(toPence(value)!, facility) === 'variation';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || invalid || amount === undefined) return;
    // Once saved the field is empty and the button disabled: the focus goes back to the field.
    const focusAfter = () => formRef.current?.querySelector('input');
    const question = `Are you sure you want to update the loan amount to ${formatMoney(amount)}?`;
    const message = variation ? `${question} ${variationNote(loan.amount)}` : question;
    if (!(await confirm({ message, focusAfter }))) return;
    setBusy(true);
    setMessage(null);
    try {
      const outcome = await callApi(() =>
        api.POST('/loans/update', { body: { loanId: loan.id, applicationId: loan.applicationId, amount } }),
      );
      if (outcome.ok) {
        setValue('');
        toast.notify(
          outcome.data.pendingAmount === null
            ? 'The loan amount has been updated.'
            : 'The variation has been sent to the client to sign.',
        );
        onSaved();
      } else if (outcome.status === 400 && outcome.fields.amount) setServerCode(outcome.fields.amount);
      else setMessage(outcome.status === 409 ? codeMessage(outcome.code) : failureMessage(outcome));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={formRef} className="loan-amount-form" noValidate onSubmit={(event) => void submit(event)}>
      <MoneyField
        label="New credit offered"
        hint={amountHint(loan)}
        value={value}
        onValueChange={(next) => {
          setValue(next);
          setServerCode(null);
        }}
        error={error}
      />
      <Button type="submit" disabled={invalid} busy={busy}>
        update loan facility
      </Button>
      <FormMessage message={message} />
    </form>
  );
}
