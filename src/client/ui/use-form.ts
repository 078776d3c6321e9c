import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { fieldCodes } from '../../shared/schemas/account';
import { useUnsavedMark, visibleErrors } from './form-engine';

type Schema = v.GenericSchema<unknown, unknown>;

export interface FieldBinding {
  name: string;
  value: string;
  onValueChange: (value: string) => void;
  onBlur: () => void;
  error: string | null;
  invalid: boolean;
}

function differs<K extends string>(values: Record<K, string>, baseline: Record<K, string>): boolean {
  return (Object.keys(values) as K[]).some((name) => values[name] !== baseline[name]);
}

/**
 * Form state validated by the shared valibot schema. A field's error is shown only once the field
 * was touched (or a submit was tried), and never for the code 'empty' (spec section 5): such a
 * field is only marked invalid. Codes sent back by the server join those of the schema until the
 * field is edited again.
 *
 * The form reports its unsaved changes (routing/unsaved-changes.ts) while it is mounted: `dirty` is
 * true when a value differs from its baseline — the initial values, values loaded later
 * (`setInitialValues`), or the values of the last successful submit (`markSaved`). Sign-out, the
 * update prompt and the service-worker reload wait for it; an edit page also passes `dirty` to
 * useLeaveConfirmation (routing/leave-confirmation.ts).
 */
export function useForm<K extends string, S extends Schema>(schema: S, initial: Record<K, string>) {
  const [values, setValues] = useState<Record<K, string>>(initial);
  const [baseline, setBaselineState] = useState<Record<K, string>>(initial);
  // Mirrored in a ref so loaded values can be compared with the baseline they replace.
  const baselineRef = useRef(initial);
  const setBaseline = useCallback((next: Record<K, string>) => {
    baselineRef.current = next;
    setBaselineState(next);
  }, []);
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverCodes, setServerCodes] = useState<Partial<Record<K, string>>>({});
  /** The values of the latest submit attempt: what `markSaved` takes as saved. */
  const submittedValues = useRef<Record<K, string>>(initial);

  const dirty = differs(values, baseline);
  const valuesRef = useRef(values);
  valuesRef.current = values;
  const discard = useCallback(() => setBaseline(valuesRef.current), [setBaseline]);

  useUnsavedMark(dirty);

  const result = useMemo(() => v.safeParse(schema, values), [schema, values]);
  const codes = useMemo<Partial<Record<K, string>>>(
    () => ({ ...(result.success ? {} : (fieldCodes(result.issues) as Partial<Record<K, string>>)), ...serverCodes }),
    [result, serverCodes],
  );

  const setValue = useCallback((name: K, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setServerCodes((current) => {
      if (!(name in current)) return current;
      const next = { ...current };
      delete next[name];
      return next;
    });
  }, []);

  /**
   * Values that come from elsewhere (the server, a link): shown, and not counted as unsaved. A field
   * the user has already changed keeps what they typed: loading never overwrites their input.
   */
  const setInitialValues = useCallback(
    (loaded: Partial<Record<K, string>>) => {
      const before = baselineRef.current;
      setValues((current) => {
        const next = { ...current };
        for (const name of Object.keys(loaded) as K[]) if (current[name] === before[name]) next[name] = loaded[name]!;
        return next;
      });
      setBaseline({ ...before, ...loaded });
    },
    [setBaseline],
  );

  const shown = (name: K) => Boolean(touched[name]) || submitted;

  const error = (name: K): string | null => visibleErrors({ [name]: codes[name] }, () => shown(name))[name] ?? null;

  const field = (name: K): FieldBinding => ({
    name,
    value: values[name],
    onValueChange: (value) => setValue(name, value),
    onBlur: () => setTouched((current) => (current[name] ? current : { ...current, [name]: true })),
    error: error(name),
    invalid: Boolean(codes[name]) && shown(name),
  });

  return {
    values,
    /** The parsed values (trimmed, lower-cased email…) when the schema accepts the form. */
    output: result.success ? (result.output as v.InferOutput<S>) : null,
    isValid: result.success,
    hasErrors: Object.keys(codes).length > 0,
    /** Values differ from the initial, loaded or last saved ones. */
    dirty,
    field,
    setValue,
    setInitialValues,
    setServerCodes,
    /** Marks a submit attempt: every error becomes visible. */
    markSubmitted: () => {
      submittedValues.current = values;
      setSubmitted(true);
    },
    /** The submit succeeded: the values it sent are saved, so the form is clean until edited again. */
    markSaved: () => setBaseline(submittedValues.current),
    /** Nothing here can be saved any more (e.g. the link was refused): what was typed is not unsaved work. */
    discard,
  };
}

/**
 * Runs an async action once at a time: a double click or a second Enter does nothing while the
 * first is under way. `busy` drives the button's state (and tells useLeaveConfirmation that the
 * form is being saved).
 */
export function useSubmit(action: () => Promise<void>) {
  const latest = useRef(action);
  latest.current = action;
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await latest.current();
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  /** For a form's onSubmit: the page does not reload, and the action runs (once at a time). */
  const onSubmit = useCallback(
    (event: FormEvent) => {
      event.preventDefault();
      void run();
    },
    [run],
  );
  return { busy, onSubmit };
}
