import { useState } from 'react';
import { useStore } from 'jotai';
import { useNavigate } from 'react-router-dom';
import { errorMessages } from '../../../../shared/rules/error-codes';
import { isOnline } from '../../../api/connection';
import { api } from '../../../api/client';
import { callApi, failureMessage } from '../../../api/failure';
import { paths } from '../../../routing/paths';
import { openAddress } from '../../../routing/portal-address';
import { signOut } from '../../../session/session';
import { Button } from '../../../ui/button';
import { FormMessage } from '../../../ui/form-message';
import { useConfirm } from '../../../ui/modal-store';

export const WITHDRAW_QUESTION = 'Are you sure you no longer wish to proceed?';
/** Our wording for the client's signing button (decision 307). */
export const SIGN_LABEL = 'sign documents';
export const SIGN_NEEDS_CONNECTION = 'Signing needs a connection. Please try again once you are back online.';

/**
 * The client's decisions on their application: 'sign documents' (POST /docusign/sign, then the
 * signing address it answers) and 'i no longer wish to proceed' (confirmed; the application becomes
 * customerRejected and the client's session ends: signed out, to /sign-in). Both need the server
 * (decision 308): neither is queued.
 */
export function ClientActions({ applicationId, sign, withdraw }: { applicationId: number; sign: boolean; withdraw: boolean }) {
  const confirm = useConfirm();
  const store = useStore();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'sign' | 'withdraw' | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  if (!sign && !withdraw) return null;

  const signDocuments = async () => {
    if (busy) return;
    setMessage(null);
    if (!isOnline()) {
      setMessage(SIGN_NEEDS_CONNECTION);
      return;
    }
    setBusy('sign');
    try {
      const outcome = await callApi(() => api.POST('/docusign/sign', { body: { applicationId } }));
      if (outcome.ok && outcome.data?.envelopUrl) {
        openAddress(navigate, outcome.data.envelopUrl);
        return;
      }
      setMessage(
        outcome.ok ? errorMessages.unhandled : outcome.kind === 'offline' ? SIGN_NEEDS_CONNECTION : failureMessage(outcome),
      );
    } finally {
      setBusy(null);
    }
  };

  const noLongerProceed = async () => {
    if (busy) return;
    if (!(await confirm(WITHDRAW_QUESTION))) return;
    setBusy('withdraw');
    setMessage(null);
    try {
      const outcome = await callApi(() =>
        api.POST('/applications/state/update', {
          body: { applicationId, state: 'customerRejected' },
          headers: { 'Idempotency-Key': crypto.randomUUID() },
        }),
      );
      if (outcome.ok) {
        await signOut(store);
        void navigate(paths.signIn.url(), { replace: true });
        return;
      }
      setMessage(failureMessage(outcome));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="details-section details-workflow" aria-labelledby="details-decide-title">
      <h2 id="details-decide-title" className="details-section__title">
        Your decision
      </h2>
      <div className="details-actions">
        {withdraw ? (
          <Button
            variant="secondary"
            busy={busy === 'withdraw'}
            disabled={busy === 'sign'}
            onClick={() => void noLongerProceed()}
          >
            i no longer wish to proceed
          </Button>
        ) : null}
        {sign ? (
          <Button busy={busy === 'sign'} disabled={busy === 'withdraw'} onClick={() => void signDocuments()}>
            {SIGN_LABEL}
          </Button>
        ) : null}
      </div>
      <FormMessage message={message} />
    </section>
  );
}
