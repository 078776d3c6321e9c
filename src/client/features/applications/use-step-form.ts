import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { JourneyData, JourneyStep } from '../../../shared/journey/steps';
import { validateStep } from '../../../shared/journey/validate';
import { useFormEngine } from '../../ui/form-engine';
import { mergeDraftValues, useDraft, type DraftRecord } from '../../offline/drafts';
import type { Audience, StepDefinition } from './steps/step-definition';

/** How long typing must pause before the unsaved mark is lifted (the draft is written by then). */
const DRAFT_SETTLE_MS = 400;

/**
 * Field codes as the server sent them, keyed by this form's fields: a create refused because the
 * email already has an account names the account's `login`, which the form asks for as the
 * client's email. Every way server codes reach a step form (an answer, a refused draft) comes here.
 */
function formCodes(codes: Record<string, string>): Record<string, string> {
  const { login, ...rest } = codes;
  return login ? { ...rest, email: login } : rest;
}

export interface StepFormOptions<S extends JourneyStep, V> {
  def: StepDefinition<S, V>;
  /** The device's draft of this step (null: nothing to load yet). */
  draftKey: string | null;
  /** The server's copy of the step (undefined: never saved). */
  serverData: JourneyData[S] | undefined;
  /** The version of the server's copy (0 when never saved). */
  serverVersion: number;
  audience: Audience;
}

/**
 * One step's form: the one form engine (ui/form-engine.ts) configured with the step's shared rule
 * (validateStep), values from the device's draft when there is one (restored after a reload, a
 * crash or days later), else from the server's copy, and every change written to the draft. The
 * server's codes of a refused save (an answer, or a refused draft) stay on their fields until they
 * are edited.
 *
 * `dirty`: the values differ from what was last saved to the server or queued for it. The spec's
 * leave question is asked then. The unsaved mark (update prompt, sign-out) only covers what is not
 * yet on the device: the draft is written within ~0.4 s of the last keystroke.
 */
export function useStepForm<S extends JourneyStep, V>({
  def,
  draftKey,
  serverData,
  serverVersion,
  audience,
}: StepFormOptions<S, V>) {
  const updateRef = useRef<((change: (current: V) => V, options: { byUser: boolean }) => void) | null>(null);
  // The same step typed in another tab: its fields show here, this tab's own typing stays (decision 341).
  const onExternalChange = useCallback((theirs: V, base: V) => {
    updateRef.current?.((current) => mergeDraftValues(base, current, theirs) as V, { byUser: false });
  }, []);
  const draft = useDraft<V>(draftKey, def.parseDraft, { onExternalChange });
  const rebaseDraft = draft.rebase;
  const [baseVersion, setBaseVersion] = useState(serverVersion);
  // Not yet on the device: the update prompt and sign-out wait for it.
  const [pendingWrite, setPendingWrite] = useState(false);
  const validate = useCallback(
    (values: V) => validateStep(def.step, def.toJourney(values), { audience, today: new Date() }),
    [def, audience],
  );
  const form = useFormEngine<V, JourneyData[S]>({ initial: null, validate, unsaved: pendingWrite });
  const { load, reset, update, setServerCodes, markSubmitted } = form;
  updateRef.current = update;
  const initialised = useRef<string | null>(null);

  // Once per step: the draft if the device has one, else the server's copy (the baseline either way).
  useEffect(() => {
    if (!draft.loaded || draftKey === null || initialised.current === draftKey) return;
    initialised.current = draftKey;
    const record: DraftRecord<V> | undefined = draft.draft;
    const fromServer = def.fromJourney(serverData);
    reset();
    rebaseDraft(record ? record.value : fromServer);
    if (record) {
      load(record.value, fromServer);
      setBaseVersion(record.baseVersion);
      if (record.status === 'rejected' && record.serverCodes) {
        setServerCodes(formCodes(record.serverCodes));
        markSubmitted();
      }
    } else {
      load(fromServer);
      setBaseVersion(serverVersion);
    }
  }, [
    draft.loaded,
    draft.draft,
    rebaseDraft,
    draftKey,
    def,
    serverData,
    serverVersion,
    load,
    reset,
    setServerCodes,
    markSubmitted,
  ]);

  const flushTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const draftRef = useRef(draft);
  draftRef.current = draft;
  useEffect(() => () => clearTimeout(flushTimer.current), []);

  const baseVersionRef = useRef(baseVersion);
  baseVersionRef.current = baseVersion;

  const onChange = useCallback(
    (next: V) => {
      update(next);
      draftRef.current.save(next, { baseVersion: baseVersionRef.current });
      setPendingWrite(true);
      clearTimeout(flushTimer.current);
      flushTimer.current = setTimeout(() => {
        void draftRef.current.flush().finally(() => setPendingWrite(false));
      }, DRAFT_SETTLE_MS);
    },
    [update],
  );

  const values = form.values;
  const journeyData = useMemo(() => (values === null ? undefined : def.toJourney(values)), [def, values]);

  return {
    loaded: values !== null,
    values,
    onChange,
    onTouch: form.touch,
    errors: form.errors,
    journeyData,
    /** The shared rules' result for the values now. */
    validation: form.check,
    dirty: form.dirty,
    /** Every change is written to the device's draft (a reload or a closed tab loses nothing). */
    keptOnDevice: !pendingWrite && draft.loaded,
    baseVersion,
    draft,
    markSubmitted,
    /** The server refused the values: its codes go on the fields until edited. */
    setServerCodes: (fieldCodes: Record<string, string>) => setServerCodes(formCodes(fieldCodes)),
    /** These values were saved or queued: the form is clean again. */
    markSaved: (saved: V) => form.markSaved(saved),
    /** Replaces every value (the conflict choice) and writes the draft, on a new base version. */
    replaceValues: (next: V, version?: number) => {
      if (version !== undefined) {
        baseVersionRef.current = version;
        setBaseVersion(version);
      }
      onChange(next);
    },
  };
}
