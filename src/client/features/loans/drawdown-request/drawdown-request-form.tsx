import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { amountMessage, errorMessages, messageForCode } from '../../../../shared/rules/error-codes';
import { formatMoney } from '../../../../shared/rules/formats';
import {
  declarationDetailsLabel,
  drawdownFieldLabels,
  lawyerDeclarationKeys,
  lawyerDeclarationLabels,
} from '../../../../shared/rules/loan-labels';
import { codeMessage } from '../../../api/failure';
import { useDraft } from '../../../offline/drafts';
import { useSafeLiveQuery } from '../../../offline/live';
import { enqueue, readQueued, waitForResult } from '../../../offline/outbox';
import { paths } from '../../../routing/paths';
import { sessionUserAtom } from '../../../session/session';
import { Button } from '../../../ui/button';
import { RadioField, YesNoField } from '../../../ui/choice-fields';
import { TextField } from '../../../ui/field';
import { focusFirstError, useUnsavedMark } from '../../../ui/form-engine';
import { FormMessage } from '../../../ui/form-message';
import { useConfirm } from '../../../ui/modal-store';
import { MoneyField } from '../../../ui/number-field';
import { TextAreaField } from '../../../ui/text-area-field';
import { creditHint } from '../loan-credit';
import { requestDraftKey } from '../offline/request-drawdown-mutation';
import '../offline/loan-mutations';
import { emptyRequest, formCodesOf, parseRequestDraft, requestCodes, toWire, type RequestValues } from './request-values';
import './drawdown-request.css';

function messageFor(path: string, code: string): string {
  if (path === 'amount') return amountMessage(code);
  // An unanswered True/False statement after a failed submit (spec section 5).
  if (path.startsWith('declarations.') && code === 'required') return 'Required Field';
  return messageForCode(code);
}

const trueFalse = [
  { value: 'true', label: 'True' },
  { value: 'false', label: 'False' },
] as const;

/** The confirmation asked before a request is sent (the spec lists one, without words). */
export const REQUEST_CONFIRMATION = 'Are you sure you want to request this drawdown?';

interface DrawdownRequestFormProps {
  loanId: number;
  applicationId: number;
  /** The loan's credit available as last known (from the server, or the saved copy offline). */
  creditAvailable: number;
  /** What a variation waiting for the client's signature would add (pounds; 0 when none waits). */
  creditAwaitingSignature?: number;
}

/**
 * The lawyer's drawdown request (spec sections 3 and 5). Every change is kept on the device as it
 * is typed (restored after a reload or a crash); 'request drawdown' asks first, then queues the
 * request with its Idempotency-Key: online it is sent at once and the page moves to the new
 * drawdown; offline it waits, shown here, and is sent once the connection is back. A refusal keeps
 * the draft with the server's messages on its fields.
 */
export function DrawdownRequestForm({
  loanId,
  applicationId,
  creditAvailable,
  creditAwaitingSignature = 0,
}: DrawdownRequestFormProps) {
  const user = useAtomValue(sessionUserAtom);
  const userId = user?.id ?? null;
  const navigate = useNavigate();
  const confirm = useConfirm();
  const formRef = useRef<HTMLFormElement>(null);
  const key = requestDraftKey(loanId);
  const draft = useDraft<RequestValues>(key, parseRequestDraft);

  const [values, setValues] = useState<RequestValues | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverCodes, setServerCodes] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pendingWrite, setPendingWrite] = useState(false);
  useUnsavedMark(pendingWrite);

  // The request of this loan still in the outbox: shown instead of the form until it is sent.
  const queued = useSafeLiveQuery(
    async () => (userId === null ? [] : (await readQueued(userId, 'requestDrawdown')).filter((item) => item.loanId === loanId)),
    [userId, loanId],
    [],
  );

  // Once: the device's draft if there is one (with the server's codes if it was refused), else empty.
  const initialised = useRef(false);
  useEffect(() => {
    if (!draft.loaded || initialised.current) return;
    initialised.current = true;
    const record = draft.draft;
    setValues(record?.value ?? emptyRequest());
    if (record?.status === 'rejected') {
      setServerCodes(formCodesOf(record.serverCodes ?? {}));
      setSubmitted(true);
      if (record.serverError && record.serverError !== 'validation') setMessage(codeMessage(record.serverError));
    }
  }, [draft.loaded, draft.draft]);

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
    }
    lastStatus.current = record?.status;
  }, [draft.draft]);

  // The waiting request went (sent from the outbox after reconnecting): the engine cleared its draft,
  // so the form starts again empty, and says so; a refusal instead brings the draft back (above).
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
      setValues(emptyRequest());
      setTouched(new Set());
      setSubmitted(false);
      setServerCodes({});
      setMessage(null);
      setSentNote('Your drawdown request has been sent.');
    } else if (draft.draft.status !== 'queued') wasWaiting.current = false;
  }, [queued, draft.loaded, draft.draft]);

  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(settle.current), []);
  const draftRef = useRef(draft);
  draftRef.current = draft;

  const change = useCallback((path: string, update: (current: RequestValues) => RequestValues) => {
    setSentNote(null);
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
  }, []);

  const touch = useCallback(
    (path: string) => setTouched((current) => (current.has(path) ? current : new Set(current).add(path))),
    [],
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

  if (queued.length > 0) {
    return (
      <section className="drawdown-request" aria-labelledby="drawdown-request-title">
        <h2 id="drawdown-request-title" className="loan-section__title">
          Request a drawdown
        </h2>
        <p className="loan-notice" role="status">
          Your request for {formatMoney(queued[0]!.request.amount)} is waiting for a connection. It will be sent once you are back
          online.
        </p>
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
    if (!(await confirm(REQUEST_CONFIRMATION))) return;
    setBusy(true);
    try {
      await draft.flush();
      const id = await enqueue({ kind: 'requestDrawdown', loanId, request: toWire(values, applicationId), draftKey: key });
      const result = await waitForResult(id);
      if (result.status === 'done') {
        const created = (result.body as { id?: unknown } | undefined)?.id;
        if (typeof created === 'number') void navigate(paths.drawdown.url({ id: created }));
      } else if (result.status === 'rejected') {
        setServerCodes(formCodesOf(result.fields));
        setMessage(result.error === 'validation' ? errorMessages.validation : codeMessage(result.error));
        focusFirstError(formRef.current);
      }
      // 'queued': the notice above takes the form's place until the request is sent.
    } catch {
      setMessage(errorMessages.unhandled);
    } finally {
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
      {...(hint ? { hint } : {})}
    />
  );

  return (
    <section className="drawdown-request" aria-labelledby="drawdown-request-title">
      <h2 id="drawdown-request-title" className="loan-section__title">
        Request a drawdown
      </h2>
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
          {text('nextHearingDate', 'For example 14/03/2027')}
          {text('finalOrderDate', 'For example 30/09/2027')}
          {text('expectedRepaymentDate', 'For example 31/12/2027')}
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
        <div className="drawdown-request__actions">
          <Button type="submit" busy={busy}>
            request drawdown
          </Button>
          <p className="drawdown-request__saved" aria-live="polite">
            {draft.draft ? 'Draft kept on this device' : ''}
          </p>
        </div>
        <FormMessage message={message} />
      </form>
    </section>
  );
}
