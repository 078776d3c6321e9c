import { useCallback, useRef, useState } from 'react';
import { errorMessages } from '../../../shared/rules/error-codes';
import { useConfirm } from '../../ui/modal-store';
import { failureMessage, send, type ApiAnswer } from './admin-kit';

/** The confirmations of section 4 that the spec names without words (ours, in its loan wording). */
export const confirmMessages = {
  deleteFirm: 'Are you sure you want to delete this law firm?',
  deleteLawyer: 'Are you sure you want to delete this lawyer?',
  deleteSolicitor: 'Are you sure you want to delete this solicitor?',
  resetPassword: 'Are you sure you want to reset the password of this client?',
} as const;

/** Toasts after a change (our wording: the spec only says a toast is shown). */
export const doneMessages = {
  firmAdded: 'The law firm has been added. Its admin has been invited by email.',
  firmSaved: 'The law firm has been saved.',
  firmDeleted: 'The law firm has been deleted.',
  lawyerAdded: 'The lawyer has been added and invited by email.',
  lawyerSaved: 'The lawyer has been saved.',
  lawyerDeleted: 'The lawyer has been deleted.',
  solicitorAdded: 'The solicitor has been added.',
  solicitorSaved: 'The solicitor has been saved.',
  solicitorDeleted: 'The solicitor has been deleted.',
  clientSaved: 'The client has been saved.',
  resetSent: 'A password reset link has been sent to the client.',
} as const;

interface ConfirmedActionOptions {
  /** The question asked first ('Yes' goes on, 'No' stops). */
  question: string;
  call: () => Promise<ApiAnswer<unknown>>;
  /** Done: the page shows it (toast, redirect). */
  onDone: () => void | Promise<void>;
  /** Shows a failure on the page (null clears it). */
  setMessage: (message: string | null) => void;
  /** The words for 400 hasActiveCases, when the action can meet it. */
  hasActiveCases?: string;
}

/**
 * A confirmed action (delete, reset password): asks first, runs once at a time, and shows why it
 * failed ('… can't be deleted due to having active cases', too many attempts, no connection).
 * `busy` also holds the leave confirmation back while the page redirects.
 */
export function useConfirmedAction(options: ConfirmedActionOptions) {
  const confirm = useConfirm();
  const latest = useRef(options);
  latest.current = options;
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async () => {
    if (running.current) return;
    const { question } = latest.current;
    if (!(await confirm(question))) return;
    running.current = true;
    setBusy(true);
    try {
      const { call, onDone, setMessage, hasActiveCases } = latest.current;
      setMessage(null);
      const outcome = await send(call);
      if (outcome.ok) {
        await onDone();
        return;
      }
      if (hasActiveCases && outcome.status === 400 && outcome.body?.error === 'hasActiveCases') setMessage(hasActiveCases);
      else setMessage(outcome.status === 400 ? errorMessages.unhandled : failureMessage(outcome));
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, [confirm]);
  return { busy, run };
}
