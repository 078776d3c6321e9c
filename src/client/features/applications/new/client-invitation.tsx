import { useState } from 'react';
import { api } from '../../../api/client';
import { callApi, codeMessage, failureMessage } from '../../../api/failure';
import { messageForCode } from '../../../../shared/rules/error-codes';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { useToast } from '../../../ui/toast-store';
import './new-application.css';

/**
 * Under the client details' email, while the client has not joined (the record's
 * `abilities.inviteClient`): the lawyer corrects a mistyped address or sends the invitation again
 * (resendClientInvitation, decision 344). It needs the server at that moment (a new link is made
 * and the old one stops working): it is not queued offline.
 */
/** The lawyer speaks of 'your client'; staff of 'the client'. */
const wording = {
  lawyer: {
    text: 'Your client has not joined yet. The invitation was sent to',
    group: 'Invite your client again',
    label: "Your client's email address",
  },
  staff: {
    text: 'The client has not joined yet. The invitation was sent to',
    group: 'Invite the client again',
    label: "The client's email address",
  },
} as const;

export function ClientInvitation({
  applicationId,
  email,
  onSent,
  audience = 'lawyer',
}: {
  applicationId: number;
  email: string;
  /** The address the client is now invited at (the form shows it). */
  onSent: (email: string) => void;
  audience?: keyof typeof wording;
}) {
  const words = wording[audience];
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(email);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const send = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    setMessage(null);
    const outcome = await callApi(() =>
      api.POST('/applications/{id}/client-invitation', { params: { path: { id: applicationId } }, body: { email: value } }),
    );
    setBusy(false);
    if (outcome.ok) {
      onSent(outcome.data.email);
      setOpen(false);
      toast.notify(`The invitation was sent to ${outcome.data.email}.`);
      return;
    }
    if (outcome.fields.email) setError(messageForCode(outcome.fields.email));
    else setMessage(outcome.kind === 'http' && outcome.status === 409 ? codeMessage(outcome.code) : failureMessage(outcome));
  };

  return (
    <div className="client-invitation">
      <p className="client-invitation__text">
        {words.text} {email}.
      </p>
      {open ? (
        // A form of its own, outside the step's: its Enter never submits the step.
        <div className="client-invitation__form" role="group" aria-label={words.group}>
          <TextField
            label={words.label}
            type="email"
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            value={value}
            onValueChange={setValue}
            error={error}
            onKeyDown={(event) => {
              // Inside the step's form: Enter sends this, never the step.
              if (event.key !== 'Enter') return;
              event.preventDefault();
              void send();
            }}
          />
          {message ? (
            <p className="client-invitation__message" role="alert">
              {message}
            </p>
          ) : null}
          <div className="client-invitation__actions">
            <Button type="button" busy={busy} onClick={() => void send()}>
              Send the invitation
            </Button>
            <Button type="button" variant="secondary" disabled={busy} onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            setValue(email);
            setError(null);
            setMessage(null);
            setOpen(true);
          }}
        >
          Correct the email or send the invitation again
        </Button>
      )}
    </div>
  );
}
