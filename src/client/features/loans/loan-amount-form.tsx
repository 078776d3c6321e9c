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
import { loanAmountCode, wirePence } from '../../../shared/rules/money';
import type { Loan } from './loans-api';

/**
 * Staff's loan amount edit while the loan is open: a number that is not below the total drawn
 * ('Is less than already drawdowned amount'); 'update loan facility' is disabled while the amount is
 * empty or invalid, and asks first. It needs the server (the total drawn may have moved).
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
  // The shared check the server makes again: above 0, pence at most, never below what is drawn.
  const code = value.trim() === '' ? undefined : loanAmountCode(value, wirePence(loan.totalDrawdowns));
  const invalid = amount === undefined || code !== undefined;
  const shown = serverCode ?? code;
  const error = shown ? amountMessage(shown) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || invalid || amount === undefined) return;
    // Once saved the field is empty and the button disabled: the focus goes back to the field.
    const focusAfter = () => formRef.current?.querySelector('input');
    const question = `Are you sure you want to update the loan amount to ${formatMoney(amount)}?`;
    if (!(await confirm({ message: question, focusAfter }))) return;
    setBusy(true);
    setMessage(null);
    try {
      const outcome = await callApi(() =>
        api.POST('/loans/update', { body: { loanId: loan.id, applicationId: loan.applicationId, amount } }),
      );
      if (outcome.ok) {
        setValue('');
        toast.notify('The loan amount has been updated.');
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
        hint={`Now ${formatMoney(loan.amount)}; at least ${formatMoney(loan.totalDrawdowns)} (already drawn)`}
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
