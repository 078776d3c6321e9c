import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { amountMessage, errorMessages, messageForCode } from '../../../../shared/rules/error-codes';
import { DRAWDOWN_DATE_HINT } from '../../../../shared/rules/drawdown-dates';
import { formatMoney } from '../../../../shared/rules/formats';
import { drawdownFieldMaxLength } from '../../../../shared/rules/money';
import {
  declarationDetailsLabel,
  drawdownFieldLabels,
  lawyerDeclarationKeys,
  lawyerDeclarationLabels,
} from '../../../../shared/rules/loan-labels';
import { codeMessage } from '../../../api/failure';
import { useDraft } from '../../../offline/drafts';
import { useSafeLiveQuery } from '../../../offline/live';
import { waitForResult } from '../../../offline/outbox';
import { paths } from '../../../routing/paths';
import { sessionUserAtom } from '../../../session/session';
import { Button } from '../../../ui/button';
import { ActionBar } from '../../../ui/action-bar';
import { RadioField, YesNoField } from '../../../ui/choice-fields';
import { TextField } from '../../../ui/field';
import { useTouchedFields, useUnsavedMark } from '../../../ui/form-engine';
import { focusFirstError } from '../../../ui/action-bars';
import { FormMessage } from '../../../ui/form-message';
import { noticeOrStatus } from '../../../ui/focus-return';
import { useConfirm } from '../../../ui/modal-store';
import { MoneyField, parseNumberInput } from '../../../ui/number-field';
import { TextAreaField } from '../../../ui/text-area-field';
import { creditHint } from '../loan-credit';
import type { RequestTarget } from './request-target';
import { filledFields, formCodesOf, parseRequestDraft, requestCodes, toWire, type RequestValues } from './request-values';
import './drawdown-request.css';

function messageFor(path: string, code: string): string {
  if (path === 'amount') return amountMessage(code);
  // An unanswered True/False statement after a failed submit (spec section 5).
  if (path.startsWith('declarations.') && code === 'required') return 'Required Field';
  return messageForCode(code);
}

/**
 * Why a kept draft was not sent, in words: the server's, or for a refusal of its fields (the amount
 * beyond the credit: the form that would mark them is not shown) each field's message.
 */
function refusalWords(serverError: string | undefined, serverCodes: Record<string, string> | undefined): string {
  if (serverError !== 'validation') return codeMessage(serverError ?? 'unhandled');
  const messages = Object.entries(formCodesOf(serverCodes ?? {}))
    .filter(([, code]) => code !== 'empty')
    .map(([path, code]) => messageFor(path, code).replace(/([^.])$/, '$1.'));
  return messages.length > 0 ? messages.join(' ') : codeMessage(serverError);
}

const trueFalse = [
  { value: 'true', label: 'True' },
  { value: 'false', label: 'False' },
] as const;

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
 * the draft with the server's messages on its fields, and the page reads its figures again.
 */
export function DrawdownRequestForm({
  target,
  applicationId,
  creditAvailable,
  creditAwaitingSignature = 0,
  held = false,
  onRefused,
}: DrawdownRequestFormProps) {
  const user = useAtomValue(sessionUserAtom);
  const userId = user?.id ?? null;
  const navigate = useNavigate();
  const confirm = useConfirm();
  const formRef = useRef<HTMLFormElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const key = target.draftKey;
  const draft = useDraft<RequestValues>(key, parseRequestDraft);
  const targetRef = useRef(target);
  targetRef.current = target;
  const onRefusedRef = useRef(onRefused);
  onRefusedRef.current = onRefused;
  /** A submit of this form waits for its answer (it says so itself when refused). */
  const submitting = useRef(false);

  const [values, setValues] = useState<RequestValues | null>(null);
  // Touched as every form counts it: left after a change (ui/form-engine.ts).
  const { touched, touch, changed, reset: resetTouched, touchAll } = useTouchedFields();
  const [submitted, setSubmitted] = useState(false);
  const [serverCodes, setServerCodes] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pendingWrite, setPendingWrite] = useState(false);
  useUnsavedMark(pendingWrite);

  // The write of this form still in the outbox (its amount): shown instead of the form until it is sent.
  const queued = useSafeLiveQuery(async () => (userId === null ? [] : targetRef.current.readWaiting(userId)), [userId, key], []);

  // Once: the device's draft if there is one (with the server's codes if it was refused), else empty.
  const initialised = useRef(false);
  useEffect(() => {
    if (!draft.loaded || initialised.current) return;
    initialised.current = true;
    const record = draft.draft;
    setValues(record?.value ?? targetRef.current.initial);
    // What was typed before is checked at once: a date kept as free text shows its message.
    if (record) touchAll(filledFields(record.value));
    if (record?.status === 'rejected') {
      setServerCodes(formCodesOf(record.serverCodes ?? {}));
      setSubmitted(true);
      if (record.serverError && record.serverError !== 'validation') setMessage(codeMessage(record.serverError));
    }
  }, [draft.loaded, draft.draft, touchAll]);

  // A refusal that arrives while the form is open (sent from the outbox after reconnecting).
  const lastStatus = useRef(draft.draft?.status);
  useEffect(() => {
    const record = draft.draft;
    if (record?.status === 'rejected' && lastStatus.current !== 'rejected') {
      setValues(record.value);
      setServerCodes(formCodesOf(record.serverCodes ?? {}));
      setSubmitted(true);
      setMessage(
        record.serverError && record.serverError !== 'validation' ? codeMessage(record.serverError) : errorMessages.validation,
      );
      // Refused from the outbox now, not restored from an earlier visit: what the page shows is older than the answer.
      if (lastStatus.current === 'queued' && !submitting.current) onRefusedRef.current?.();
    }
    lastStatus.current = record?.status;
  }, [draft.draft]);

  const startAgain = useCallback(() => {
    setValues(targetRef.current.initial);
    resetTouched();
    setSubmitted(false);
    setServerCodes({});
    setMessage(null);
  }, [resetTouched]);

  // The waiting write went (sent from the outbox after reconnecting): the engine cleared its draft,
  // so a new request's form starts again empty, and says so, and a change opens its drawdown; a
  // refusal instead brings the draft back (above).
  const [sentNote, setSentNote] = useState<string | null>(null);
  const wasWaiting = useRef(false);
  useEffect(() => {
    if (queued === undefined || !draft.loaded) return;
    if (queued.length > 0) {
      wasWaiting.current = true;
      return;
    }
    if (!wasWaiting.current) return;
    // The outbox row and the draft go in one transaction, but the two live reads may see it apart.
    if (draft.draft === undefined) {
      wasWaiting.current = false;
      const open = targetRef.current.openAfterSent;
      if (open !== undefined) {
        void navigate(paths.drawdown.url({ id: open }));
        return;
      }
      startAgain();
      setSentNote('Your drawdown request has been sent.');
    } else if (draft.draft.status !== 'queued') wasWaiting.current = false;
  }, [queued, draft.loaded, draft.draft, navigate, startAgain]);

  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(settle.current), []);
  const draftRef = useRef(draft);
  draftRef.current = draft;

  const change = useCallback(
    (path: string, update: (current: RequestValues) => RequestValues) => {
      setSentNote(null);
      changed();
      setValues((current) => {
        if (current === null) return current;
        const next = update(current);
        draftRef.current.save(next);
        return next;
      });
      setServerCodes((current) => {
        if (!(path in current)) return current;
        const next = { ...current };
        delete next[path];
        return next;
      });
      setPendingWrite(true);
      clearTimeout(settle.current);
      settle.current = setTimeout(() => void draftRef.current.flush().finally(() => setPendingWrite(false)), 400);
    },
    [changed],
  );

  const codes = useMemo(
    () => (values === null ? {} : requestCodes(values, creditAvailable, creditAwaitingSignature)),
    [values, creditAvailable, creditAwaitingSignature],
  );
  const errorOf = (path: string): string | null => {
    const server = serverCodes[path];
    if (server && server !== 'empty') return messageFor(path, server);
    const code = codes[path];
    if (!code || code === 'empty' || !(submitted || touched.has(path))) return null;
    return messageFor(path, code);
  };

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
        <p className="loan-notice" role="status">
          {target.waitingText(formatMoney(queued[0]!.amount), queued[0]!.held)}
        </p>
      </section>
    );
  }

  const discard = async () => {
    if (!(await confirm(target.discardQuestion))) return;
    await draft.clear();
    startAgain();
  };
  const cancel = async (to: string) => {
    if (draft.draft && !(await confirm(target.discardQuestion))) return;
    await draft.clear();
    void navigate(to);
  };

  if (held) {
    // Nothing to send now: a draft kept on the device is said, never dropped; the page says why.
    const kept = draft.draft;
    if (!kept) return null;
    const amount = parseNumberInput(kept.value.amount);
    const refused = kept.status === 'rejected';
    return (
      <section className="drawdown-request" aria-labelledby="drawdown-request-title">
        {heading}
        <div className={`loan-notice${refused ? ' loan-notice--warning' : ''}`} role={refused ? 'alert' : 'status'}>
          <p>
            {target.heldText(
              amount === undefined ? null : formatMoney(amount),
              refused ? refusalWords(kept.serverError, kept.serverCodes) : null,
            )}
          </p>
          <Button variant="secondary" onClick={() => void discard()}>
            discard
          </Button>
        </div>
      </section>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || userId === null) return;
    setSubmitted(true);
    setMessage(null);
    if (Object.keys(requestCodes(values, creditAvailable, creditAwaitingSignature)).length > 0) {
      focusFirstError(formRef.current);
      return;
    }
    // Queued offline, the form gives way to the notice that it waits: the focus goes there.
    if (!(await confirm({ message: target.confirmation, focusAfter: () => noticeOrStatus(sectionRef.current) }))) return;
    setBusy(true);
    submitting.current = true;
    try {
      await draft.flush();
      const id = await target.enqueue(toWire(values, applicationId));
      const result = await waitForResult(id);
      if (result.status === 'done') {
        const drawdown = target.drawdownOf(result.body);
        if (drawdown !== undefined) void navigate(paths.drawdown.url({ id: drawdown }));
      } else if (result.status === 'rejected') {
        setServerCodes(formCodesOf(result.fields));
        setMessage(result.error === 'validation' ? errorMessages.validation : codeMessage(result.error));
        focusFirstError(formRef.current);
        onRefused?.();
      }
      // 'queued': the notice above takes the form's place until the request is sent.
    } catch {
      setMessage(errorMessages.unhandled);
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  };

  const declarationFields = lawyerDeclarationKeys.map((declaration) => {
    const path = `declarations.${declaration}`;
    const answer = values.declarations[declaration];
    return (
      <div key={declaration} className="drawdown-request__declaration">
        <RadioField
          label={lawyerDeclarationLabels[declaration]}
          orientation="horizontal"
          options={trueFalse}
          value={answer === null ? '' : String(answer)}
          onValueChange={(next) =>
            change(path, (current) => ({ ...current, declarations: { ...current.declarations, [declaration]: next === 'true' } }))
          }
          onBlur={() => touch(path)}
          error={errorOf(path)}
        />
        {answer === false ? (
          <TextAreaField
            className="field-reveal"
            label={declarationDetailsLabel}
            rows={3}
            value={values.declarationDetails[declaration]}
            onValueChange={(next) =>
              change(`declarationDetails.${declaration}`, (current) => ({
                ...current,
                declarationDetails: { ...current.declarationDetails, [declaration]: next },
              }))
            }
            onBlur={() => touch(`declarationDetails.${declaration}`)}
            error={errorOf(`declarationDetails.${declaration}`)}
          />
        ) : null}
      </div>
    );
  });

  const text = (
    field: 'invoiceNumber' | 'stageOfCase' | 'nextHearingDate' | 'finalOrderDate' | 'reaplyAssets' | 'expectedRepaymentDate',
    hint?: string,
  ) => (
    <TextField
      label={drawdownFieldLabels[field]}
      value={values[field]}
      onValueChange={(next) => change(field, (current) => ({ ...current, [field]: next }))}
      onBlur={() => touch(field)}
      error={errorOf(field)}
      {...(field in drawdownFieldMaxLength
        ? { maxLength: drawdownFieldMaxLength[field as keyof typeof drawdownFieldMaxLength] }
        : {})}
      {...(hint ? { hint } : {})}
    />
  );

  return (
    <section ref={sectionRef} className="drawdown-request" aria-labelledby="drawdown-request-title">
      {heading}
      {sentNote ? (
        <p className="loan-notice" role="status">
          {sentNote}
        </p>
      ) : null}
      <form ref={formRef} className="drawdown-request__form" noValidate onSubmit={(event) => void submit(event)}>
        <div className="drawdown-request__grid">
          <MoneyField
            label={drawdownFieldLabels.amount}
            hint={creditHint(creditAvailable, creditAwaitingSignature)}
            value={values.amount}
            onValueChange={(next) => change('amount', (current) => ({ ...current, amount: next }))}
            onBlur={() => touch('amount')}
            error={errorOf('amount')}
          />
          {text('invoiceNumber')}
          {text('stageOfCase')}
          {text('nextHearingDate', DRAWDOWN_DATE_HINT)}
          {text('finalOrderDate', DRAWDOWN_DATE_HINT)}
          {text('expectedRepaymentDate', DRAWDOWN_DATE_HINT)}
          <TextAreaField
            className="field--wide"
            label={drawdownFieldLabels.reaplyAssets}
            rows={3}
            value={values.reaplyAssets}
            onValueChange={(next) => change('reaplyAssets', (current) => ({ ...current, reaplyAssets: next }))}
            onBlur={() => touch('reaplyAssets')}
            error={errorOf('reaplyAssets')}
          />
        </div>
        <YesNoField
          label={drawdownFieldLabels.materialChanges}
          value={values.materialChanges}
          onValueChange={(next) => change('materialChanges', (current) => ({ ...current, materialChanges: next }))}
          onBlur={() => touch('materialChanges')}
          error={errorOf('materialChanges')}
        />
        {values.materialChanges ? (
          <TextAreaField
            className="field-reveal"
            label={drawdownFieldLabels.materialChangesDetails}
            rows={3}
            value={values.materialChangesDetails}
            onValueChange={(next) =>
              change('materialChangesDetails', (current) => ({ ...current, materialChangesDetails: next }))
            }
            onBlur={() => touch('materialChangesDetails')}
            error={errorOf('materialChangesDetails')}
          />
        ) : null}
        <fieldset className="drawdown-request__declarations">
          <legend className="drawdown-request__legend">Your declarations</legend>
          <p className="drawdown-request__intro">Answer each statement True or False. If False, please give details.</p>
          {declarationFields}
        </fieldset>
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
