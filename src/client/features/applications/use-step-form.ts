import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { JourneyData, JourneyStep } from '../../../shared/journey/steps';
import { validateStep } from '../../../shared/journey/validate';
import { useUnsavedMark, visibleErrors } from '../../ui/form-engine';
import { useDraft, type DraftRecord } from '../../offline/drafts';
import type { Audience, StepDefinition } from './steps/step-definition';

/** How long typing must pause before the unsaved mark is lifted (the draft is written by then). */
const DRAFT_SETTLE_MS = 400;

function valueAt(values: unknown, path: string): unknown {
  let current: unknown = values;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

const snapshot = (value: unknown) => JSON.stringify(value ?? null);

/**
 * Field codes as the server sent them, keyed by this form's fields: a create refused because the
 * email already has an account names the account's `login`, which the form asks for as the
 * client's email. Every way server codes reach a step form (an answer, a refused draft) comes here.
 */
function formCodes(codes: Record<string, string>): Record<string, string> {
  const { login, ...rest } = codes;
  return login ? { ...rest, email: login } : rest;
}

export interface ServerCodes {
  codes: Record<string, string>;
  /** The value of each field when the server refused it: the code goes once the field changes. */
  seen: Record<string, string>;
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
 * One step's form: values from the device's draft when there is one (restored after a reload, a
 * crash or days later), else from the server's copy; every change written to the draft; the shared
 * validation's codes shown for touched fields or after a submit attempt; the server's codes of a
 * refused save shown on their fields until they are edited.
 *
 * `dirty`: the values differ from what was last saved to the server or queued for it. The spec's
 * leave question is asked then. `markUnsaved` (update prompt, sign-out) only covers what is not yet
 * on the device: the draft is written within ~0.4 s of the last keystroke.
 */
export function useStepForm<S extends JourneyStep, V>({
  def,
  draftKey,
  serverData,
  serverVersion,
  audience,
}: StepFormOptions<S, V>) {
  const draft = useDraft<V>(draftKey, def.parseDraft);
  const [values, setValues] = useState<V | null>(null);
  const [baseVersion, setBaseVersion] = useState(serverVersion);
  /** The JSON of the values last saved or queued: the form is dirty when it differs. */
  const [savedJson, setSavedJson] = useState<string | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<ServerCodes>({ codes: {}, seen: {} });
  const initialised = useRef<string | null>(null);

  // Once per step: the draft if the device has one, else the server's copy.
  useEffect(() => {
    if (!draft.loaded || draftKey === null || initialised.current === draftKey) return;
    initialised.current = draftKey;
    const record: DraftRecord<V> | undefined = draft.draft;
    const fromServer = def.fromJourney(serverData);
    setSavedJson(snapshot(fromServer));
    setTouched(new Set());
    setSubmitted(false);
    if (record) {
      setValues(record.value);
      setBaseVersion(record.baseVersion);
      if (record.status === 'rejected' && record.serverCodes) {
        const codes = formCodes(record.serverCodes);
        setServer({ codes, seen: seenFor(record.value, codes) });
        setSubmitted(true);
      } else setServer({ codes: {}, seen: {} });
    } else {
      setValues(fromServer);
      setBaseVersion(serverVersion);
      setServer({ codes: {}, seen: {} });
    }
  }, [draft.loaded, draft.draft, draftKey, def, serverData, serverVersion]);

  // Not yet on the device: the update prompt and sign-out wait for it.
  const [pendingWrite, setPendingWrite] = useState(false);
  useUnsavedMark(pendingWrite);
  const flushTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const draftRef = useRef(draft);
  draftRef.current = draft;
  useEffect(() => () => clearTimeout(flushTimer.current), []);

  const baseVersionRef = useRef(baseVersion);
  baseVersionRef.current = baseVersion;

  const onChange = useCallback((next: V) => {
    setValues(next);
    draftRef.current.save(next, { baseVersion: baseVersionRef.current });
    setPendingWrite(true);
    clearTimeout(flushTimer.current);
    flushTimer.current = setTimeout(() => {
      void draftRef.current.flush().finally(() => setPendingWrite(false));
    }, DRAFT_SETTLE_MS);
  }, []);

  const onTouch = useCallback((path: string) => {
    setTouched((current) => (current.has(path) ? current : new Set(current).add(path)));
  }, []);

  const journeyData = useMemo(() => (values === null ? undefined : def.toJourney(values)), [def, values]);
  const validation = useMemo(
    () => (journeyData === undefined ? null : validateStep(def.step, journeyData, { audience, today: new Date() })),
    [def.step, journeyData, audience],
  );
  const codes = useMemo<Record<string, string>>(() => (validation && !validation.success ? validation.fields : {}), [validation]);

  // A server code stays until its field is edited.
  const liveServerCodes = useMemo(() => {
    const live: Record<string, string> = {};
    for (const [path, code] of Object.entries(server.codes)) {
      if (values === null || server.seen[path] === undefined || snapshot(valueAt(values, path)) === server.seen[path]) {
        live[path] = code;
      }
    }
    return live;
  }, [server, values]);

  const errors = useMemo(
    () => visibleErrors(codes, (path) => submitted || touched.has(path), liveServerCodes),
    [codes, liveServerCodes, submitted, touched],
  );

  const valuesJson = values === null ? null : snapshot(values);
  const dirty = values !== null && savedJson !== null && valuesJson !== savedJson;

  return {
    loaded: values !== null,
    values,
    onChange,
    onTouch,
    errors,
    journeyData,
    /** The shared rules' result for the values now. */
    validation,
    dirty,
    baseVersion,
    draft,
    hasServerCodes: Object.keys(liveServerCodes).length > 0,
    markSubmitted: () => setSubmitted(true),
    /** The server refused the values: its codes go on the fields until edited. */
    setServerCodes: (fieldCodes: Record<string, string>) => {
      const codes = formCodes(fieldCodes);
      setServer({ codes, seen: values === null ? {} : seenFor(values, codes) });
    },
    /** These values were saved or queued: the form is clean again. */
    markSaved: (saved: V) => setSavedJson(snapshot(saved)),
    /** The base version changes (a conflict resolved against the server's copy). */
    setBaseVersion: (version: number) => setBaseVersion(version),
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

function seenFor(values: unknown, fieldCodes: Record<string, string>): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const path of Object.keys(fieldCodes)) {
    const value = valueAt(values, path);
    if (value !== undefined) seen[path] = snapshot(value);
  }
  return seen;
}
