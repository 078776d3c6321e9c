import { useCallback, useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { errorMessages } from '../../../../shared/rules/error-codes';
import { codeMessage } from '../../../api/failure';
import { useDraftForm } from '../../../offline/draft-form';
import { waitForResult } from '../../../offline/outbox';
import { useLeaveConfirmation } from '../../../routing/leave-confirmation';
import { paths } from '../../../routing/paths';
import { useStillHere } from '../../../routing/still-here';
import { sessionUserAtom } from '../../../session/session';
import { focusFirstError } from '../../../ui/action-bars';
import { noticeOrStatus } from '../../../ui/focus-return';
import { useConfirm } from '../../../ui/modal-store';
import { requestMessage } from './request-messages';
import type { RequestTarget } from './request-target';
import { filledFields, formCodesOf, parseRequestDraft, requestCodes, toWire, type RequestValues } from './request-values';
import { useWaitingRequest } from './use-waiting-request';

export interface RequestFormOptions {
  target: RequestTarget;
  applicationId: number;
  creditAvailable: number;
  creditAwaitingSignature: number;
  onRefused: (() => void) | undefined;
  /** The page takes no write of this target now: a kept draft is only shown, and leaving asks nothing. */
  held: boolean;
  /** The form (its first error is focused) and the section (the waiting notice takes the focus). */
  formRef: RefObject<HTMLFormElement | null>;
  sectionRef: RefObject<HTMLElement | null>;
}

/**
 * The drawdown request's state: the draft-backed form (offline/draft-form.ts) with the request's
 * checks against the credit last known, the write waiting in the outbox, a refusal (answered here or
 * from the outbox later), the submit (asked first, then queued with its Idempotency-Key), discard
 * and cancel.
 */
export function useRequestForm({
  target,
  applicationId,
  creditAvailable,
  creditAwaitingSignature,
  onRefused,
  held,
  formRef,
  sectionRef,
}: RequestFormOptions) {
  const userId = useAtomValue(sessionUserAtom)?.id ?? null;
  const navigate = useNavigate();
  const confirm = useConfirm();
  const onRefusedRef = useRef(onRefused);
  onRefusedRef.current = onRefused;
  /** A submit of this form waits for its answer (it says so itself when refused). */
  const submitting = useRef(false);
  /**
   * The drawdown was opened after a save: by the submit, which had the answer, or by the outbox's
   * sent path, whichever came first. The other does not open it again (a second move would undo a
   * click made between the two).
   */
  const opened = useRef(false);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentNote, setSentNote] = useState<string | null>(null);

  const validate = useCallback(
    (values: RequestValues) => {
      const codes = requestCodes(values, creditAvailable, creditAwaitingSignature);
      return Object.keys(codes).length === 0
        ? { success: true as const, output: values }
        : { success: false as const, fields: codes };
    },
    [creditAvailable, creditAwaitingSignature],
  );
  const targetRef = useRef(target);
  targetRef.current = target;
  const form = useDraftForm<RequestValues, RequestValues>({
    draftKey: target.draftKey,
    parseDraft: parseRequestDraft,
    initial: () => targetRef.current.initial,
    validate,
    formCodes: formCodesOf,
    messageFor: requestMessage,
    // What was typed before is checked at once: a date kept as free text shows its message.
    touchedWhenRestored: filledFields,
    // The same request open in two tabs: each shows the other's typing and keeps its own (decision 738).
    mergeOtherTabs: true,
  });
  const { draft, load, reset, markSubmitted, setServerCodes, onChange } = form;

  // A refusal that arrives while the form is open (sent from the outbox after reconnecting), or
  // that the kept draft brings back.
  const lastStatus = useRef(draft.draft?.status);
  useEffect(() => {
    const record = draft.draft;
    if (record?.status === 'rejected' && lastStatus.current !== 'rejected') {
      load(record.value);
      setServerCodes(record.serverCodes ?? {});
      markSubmitted();
      setMessage(
        record.serverError && record.serverError !== 'validation' ? codeMessage(record.serverError) : errorMessages.validation,
      );
      // Refused from the outbox now, not restored from an earlier visit: what the page shows is older than the answer.
      if (lastStatus.current === 'queued' && !submitting.current) onRefusedRef.current?.();
    }
    lastStatus.current = record?.status;
  }, [draft.draft, load, setServerCodes, markSubmitted]);

  const startAgain = useCallback(() => {
    load(targetRef.current.initial);
    reset();
    setMessage(null);
  }, [load, reset]);

  const queued = useWaitingRequest(
    target,
    userId,
    draft,
    () => {
      startAgain();
      setSentNote('Your drawdown request has been sent.');
    },
    opened,
  );
  // A late answer does not take the user back from a page they went to meanwhile.
  const stillHere = useStillHere();

  // Typed changes on the form, not yet sent: a change waiting in the outbox, or sent (its draft gone,
  // the page moving to the drawdown), is not asked about.
  const unsent =
    target.asksBeforeLeaving &&
    !held &&
    form.dirty &&
    queued?.length === 0 &&
    draft.draft !== undefined &&
    draft.draft.status !== 'queued';
  const { leaveWithoutAsking } = useLeaveConfirmation(unsent, busy, {
    keptOnDevice: form.keptOnDevice,
    onLeave: () => draft.clear(),
  });

  const change = useCallback(
    (update: (current: RequestValues) => RequestValues) => {
      setSentNote(null);
      onChange(update);
    },
    [onChange],
  );

  const discard = async () => {
    if (!(await confirm(target.discardQuestion))) return;
    await draft.clear();
    startAgain();
  };
  const cancel = async (to: string) => {
    if (draft.draft && !(await confirm(target.discardQuestion))) return;
    await draft.clear();
    // Its own question was asked: the leave question would ask the same again.
    leaveWithoutAsking();
    void navigate(to);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const values = form.values;
    if (busy || userId === null || values === null) return;
    markSubmitted();
    setMessage(null);
    if (!form.check?.success) {
      focusFirstError(formRef.current);
      return;
    }
    // Queued offline, the form gives way to the notice that it waits: the focus goes there.
    if (!(await confirm({ message: target.confirmation, focusAfter: () => noticeOrStatus(sectionRef.current) }))) return;
    setBusy(true);
    submitting.current = true;
    const isHere = stillHere();
    try {
      await draft.flush();
      const id = await target.enqueue(toWire(values, applicationId));
      const result = await waitForResult(id);
      if (result.status === 'done') {
        const drawdown = target.drawdownOf(result.body);
        if (drawdown !== undefined && isHere() && !opened.current) {
          opened.current = true;
          void navigate(paths.drawdown.url({ id: drawdown }));
        }
      } else if (result.status === 'rejected') {
        setServerCodes(result.fields);
        setMessage(result.error === 'validation' ? errorMessages.validation : codeMessage(result.error));
        focusFirstError(formRef.current);
        onRefused?.();
      }
      // 'queued': the notice takes the form's place until the request is sent.
    } catch {
      setMessage(errorMessages.unhandled);
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  };

  return { form, queued, change, message, busy, sentNote, discard, cancel, submit };
}
