import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { messageForCode } from '../../shared/rules/error-codes';
import { markUnsaved } from './unsaved-changes';

/**
 * The one form engine: record forms (ui/use-form.ts useForm: a valibot schema over string fields)
 * and forms kept as a draft on the device (offline/draft-form.ts useDraftForm: the wizard's steps,
 * the drawdown request) are two configurations of useFormEngine below. It holds the
 * values and what they are compared with (the baseline: loaded or last saved), which fields were
 * touched, whether a submit was tried, the shared rule's codes and the server's, which of them are
 * shown and in which words, and the unsaved mark.
 */

/** A shared rule's answer for the form's values: the parsed output, or field path → code. */
export type FormCheck<O> = { success: true; output: O } | { success: false; fields: Record<string, string> };

export interface FormEngineOptions<V, O> {
  /** The values to start from (also the baseline); null while they are not known yet (see `load`). */
  initial: V | null;
  /** The shared rule the server also runs; keep it stable (useCallback) so it reruns only on a change. */
  validate: (values: V) => FormCheck<O>;
  /**
   * What the unsaved mark (sign-out, update prompt) reports; by default whether the values differ
   * from the baseline. A form kept as a draft on the device passes "not yet written to the device".
   */
  unsaved?: boolean;
  /** A code in words for a field (default: the code's words in rules/error-codes.ts); keep it stable. */
  messageFor?: (path: string, code: string) => string;
}

/** The value at a dotted path ('addressHistory.1.date'), undefined where the path leads nowhere. */
export function valueAt(values: unknown, path: string): unknown {
  let current: unknown = values;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** A value as text with object keys in order, so two equal values compare equal however built. */
function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** The server's codes left once their fields were edited (a code goes when its field's value changes). */
function withoutEdited(codes: Record<string, string>, before: unknown, after: unknown): Record<string, string> {
  const kept = Object.entries(codes).filter(([path]) => canonical(valueAt(before, path)) === canonical(valueAt(after, path)));
  return kept.length === Object.keys(codes).length ? codes : Object.fromEntries(kept);
}

const noCodes: Record<string, string> = {};

/**
 * Which fields were touched (spec section 5: an error is shown only once its field was touched).
 * Touched means left after a change: a field counts once focus leaves it (`touch`, on blur) after
 * the user changed a value (`changed`) since a field was last left, so tabbing through an
 * untouched form paints nothing red (docs/decisions.md 436). A submit attempt shows every error
 * anyway.
 */
export function useTouchedFields() {
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const changedSinceLeft = useRef(false);
  /** The user changed a value (not a value loaded or merged from elsewhere). */
  const changed = useCallback(() => {
    changedSinceLeft.current = true;
  }, []);
  /** Focus left the field at `path`. */
  const touch = useCallback((path: string) => {
    if (!changedSinceLeft.current) return;
    changedSinceLeft.current = false;
    setTouched((current) => (current.has(path) ? current : new Set(current).add(path)));
  }, []);
  const reset = useCallback(() => {
    changedSinceLeft.current = false;
    setTouched(new Set());
  }, []);
  /** Values the person typed on an earlier visit (a kept draft): checked at once. */
  const touchAll = useCallback((paths: Iterable<string>) => {
    changedSinceLeft.current = false;
    setTouched(new Set(paths));
  }, []);
  return { touched, touch, changed, reset, touchAll };
}

/**
 * The form's state and rules (see the module comment). `update` is the user's change; `load` puts
 * values from elsewhere (the server, a stored draft) and takes them, or `baseline`, as the baseline;
 * `markSaved` moves the baseline to what was saved (by default the values of the last submit
 * attempt, so changes typed while it was under way stay unsaved).
 */
export function useFormEngine<V, O>({ initial, validate, unsaved, messageFor }: FormEngineOptions<V, O>) {
  const [values, setValues] = useState<V | null>(initial);
  const [baseline, setBaselineState] = useState<V | null>(initial);
  const { touched, touch, changed, reset: resetTouched, touchAll } = useTouchedFields();
  const [submitted, setSubmitted] = useState(false);
  const [serverCodes, setServerCodesState] = useState<Record<string, string>>(noCodes);
  // Mirrored in refs: a change reads what the previous one left, before React has rendered it.
  const valuesRef = useRef(initial);
  const baselineRef = useRef(initial);
  const submittedValues = useRef(initial);

  const setBaseline = useCallback((next: V | null) => {
    baselineRef.current = next;
    setBaselineState(next);
  }, []);

  /** The user's change; `{ byUser: false }` for values merged from elsewhere (another tab's typing). */
  const update = useCallback(
    (change: V | ((current: V) => V), { byUser = true }: { byUser?: boolean } = {}) => {
      const before = valuesRef.current;
      if (before === null) return;
      const next = typeof change === 'function' ? (change as (current: V) => V)(before) : change;
      valuesRef.current = next;
      setValues(next);
      setServerCodesState((codes) => withoutEdited(codes, before, next));
      if (byUser) changed();
    },
    [changed],
  );

  const load = useCallback(
    (next: V, nextBaseline: V = next) => {
      valuesRef.current = next;
      setValues(next);
      setBaseline(nextBaseline);
    },
    [setBaseline],
  );

  /** A fresh start (another record or step): nothing touched, no submit tried, no server codes. */
  const reset = useCallback(() => {
    resetTouched();
    setSubmitted(false);
    setServerCodesState(noCodes);
  }, [resetTouched]);

  const markSubmitted = useCallback(() => {
    submittedValues.current = valuesRef.current;
    setSubmitted(true);
  }, []);

  const markSaved = useCallback((saved?: V) => setBaseline(saved ?? submittedValues.current), [setBaseline]);

  const discard = useCallback(() => setBaseline(valuesRef.current), [setBaseline]);

  /** The server refused the values: its codes go on their fields until those are edited. */
  const setServerCodes = useCallback((codes: Record<string, string>) => setServerCodesState({ ...codes }), []);

  const check = useMemo(() => (values === null ? null : validate(values)), [validate, values]);
  const codes = useMemo<Record<string, string>>(
    () => ({ ...(check && !check.success ? check.fields : {}), ...serverCodes }),
    [check, serverCodes],
  );
  const shown = useCallback((path: string) => submitted || touched.has(path), [submitted, touched]);
  const errors = useMemo(() => visibleErrors(codes, shown, serverCodes, messageFor), [codes, shown, serverCodes, messageFor]);

  const valuesText = useMemo(() => (values === null ? null : canonical(values)), [values]);
  const baselineText = useMemo(() => (baseline === null ? null : canonical(baseline)), [baseline]);
  const dirty = valuesText !== null && baselineText !== null && valuesText !== baselineText;

  useUnsavedMark(unsaved ?? dirty);

  return {
    values,
    /** The values last loaded or saved. */
    baseline,
    update,
    load,
    reset,
    /** Focus left a field: it counts as touched if a value was changed since a field was last left. */
    touch,
    /** Values typed on an earlier visit (a kept draft) came back: these fields count as touched. */
    touchAll,
    /** Whether a field's codes are shown (it was touched, or a submit was tried). */
    shown,
    markSubmitted,
    markSaved,
    discard,
    setServerCodes,
    /** The shared rule's answer for the values now (null while there are none). */
    check,
    /** Every code of the values now: the rule's, and the server's until their fields are edited. */
    codes,
    /** The server's codes still standing. */
    serverCodes,
    /** The messages to show, by field path. */
    errors,
    /** The values differ from the baseline. */
    dirty,
    /** The values and baseline as they are now (for a change built on both, before a render). */
    read: useCallback(() => ({ values: valuesRef.current, baseline: baselineRef.current }), []),
  };
}

export type FormEngine<V, O> = ReturnType<typeof useFormEngine<V, O>>;

/**
 * The messages to show: a code is shown once its field was touched or a submit was tried
 * (`shown`), and never the code 'empty' (spec section 5: such a field is only marked invalid).
 * Server codes (`always`) are shown at once, until their field is edited.
 */
export function visibleErrors(
  codes: Readonly<Record<string, string | undefined>>,
  shown: (path: string) => boolean,
  always: Readonly<Record<string, string>> = {},
  messageFor: (path: string, code: string) => string = (_path, code) => messageForCode(code),
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, code] of Object.entries(codes))
    if (code && code !== 'empty' && shown(path)) out[path] = messageFor(path, code);
  for (const [path, code] of Object.entries(always)) if (code !== 'empty') out[path] = messageFor(path, code);
  return out;
}

/**
 * Reports the form's unsaved changes (ui/unsaved-changes.ts) while it is mounted. Two effects,
 * not one with a cleanup: a cleanup on every change would briefly report the form clean, and a
 * waiting update (pwa/register.ts) would reload the page in that instant.
 */
export function useUnsavedMark(unsaved: boolean): void {
  const id = useId();
  useEffect(() => {
    markUnsaved(id, unsaved);
  }, [id, unsaved]);
  useEffect(() => () => markUnsaved(id, false), [id]);
}
