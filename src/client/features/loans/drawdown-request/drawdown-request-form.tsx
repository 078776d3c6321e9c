import { useRef } from 'react';
import { formatMoney } from '../../../../shared/rules/formats';
import { useOnline } from '../../../api/connection';
import { ActionBar } from '../../../ui/action-bar';
import { Button } from '../../../ui/button';
import '../../../ui/notice.css';
import { FormMessage } from '../../../ui/form-message';
import { creditHint } from '../loan-credit';
import { HeldRequest } from './held-request';
import { RequestDeclarations, RequestFields } from './request-fields';
import type { RequestTarget } from './request-target';
import { useRequestForm } from './use-request-form';
import './drawdown-request.css';

interface DrawdownRequestFormProps {
  /** A new request on a loan, or the change of a requested drawdown (request-target.ts). */
  target: RequestTarget;
  applicationId: number;
  /** The credit this request may use, as last known (from the server, or the saved copy offline). */
  creditAvailable: number;
  /** What a variation waiting for the client's signature would add (pounds; 0 when none waits). */
  creditAwaitingSignature?: number;
  /**
   * The page takes no write of this target now (the loan is not open or has no credit left; the
   * drawdown moved on): only a draft kept on the device is shown, with why it was not sent.
   */
  held?: boolean;
  /** The server refused the write: the page reads its figures again, so the form checks against them. */
  onRefused?: () => void;
}

/**
 * The lawyer's drawdown request (spec sections 3 and 5), new or changed. Every change is kept on
 * the device as it is typed (restored after a reload or a crash); the submit asks first, then
 * queues the write with its Idempotency-Key: online it is sent at once and the page moves to the
 * drawdown; offline it waits, shown here, and is sent once the connection is back. A refusal keeps
 * the draft with the server's messages on its fields, and the page reads its figures again. The
 * state is use-request-form.ts; the fields are request-fields.tsx.
 */
export function DrawdownRequestForm({
  target,
  applicationId,
  creditAvailable,
  creditAwaitingSignature = 0,
  held = false,
  onRefused,
}: DrawdownRequestFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const { form, queued, change, message, busy, sentNote, discard, cancel, submit } = useRequestForm({
    target,
    applicationId,
    creditAvailable,
    creditAwaitingSignature,
    onRefused,
    held,
    formRef,
    sectionRef,
  });
  const { values, draft } = form;
  const online = useOnline();

  if (!draft.loaded || values === null || queued === undefined) return null;

  const heading = (
    <h2 id="drawdown-request-title" className="loan-section__title">
      {target.heading}
    </h2>
  );

  if (queued.length > 0) {
    return (
      <section ref={sectionRef} className="drawdown-request" aria-labelledby="drawdown-request-title">
        {heading}
        <p className="notice loan-notice" role="status">
          {target.waitingText(formatMoney(queued[0]!.amount), queued[0]!.held, online)}
        </p>
      </section>
    );
  }

  if (held)
    return draft.draft ? (
      <HeldRequest target={target} kept={draft.draft} heading={heading} onDiscard={() => void discard()} />
    ) : null;

  return (
    <section ref={sectionRef} className="drawdown-request" aria-labelledby="drawdown-request-title">
      {heading}
      {sentNote ? (
        <p className="notice loan-notice" role="status">
          {sentNote}
        </p>
      ) : null}
      <form ref={formRef} className="drawdown-request__form" noValidate onSubmit={(event) => void submit(event)}>
        <RequestFields
          values={values}
          change={change}
          touch={form.touch}
          errors={form.errors}
          amountHint={creditHint(creditAvailable, creditAwaitingSignature)}
        />
        <RequestDeclarations values={values} change={change} touch={form.touch} errors={form.errors} />
        <ActionBar className="drawdown-request__actions">
          <Button type="submit" busy={busy}>
            {target.submitLabel}
          </Button>
          {target.cancelTo ? (
            <Button variant="secondary" disabled={busy} onClick={() => void cancel(target.cancelTo!)}>
              cancel
            </Button>
          ) : null}
          <p className="drawdown-request__saved" aria-live="polite">
            {draft.draft ? 'Draft kept on this device' : ''}
          </p>
        </ActionBar>
        <FormMessage message={message} />
      </form>
    </section>
  );
}
