import { useCallback, useRef, useState } from 'react';
import { errorMessages } from '../../shared/rules/error-codes';
import { useConfirm } from '../ui/modal-store';
import { callApi, failureMessage, type ApiAnswer } from '../api/failure';

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
      const outcome = await callApi(call);
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
