import { useCallback, useRef, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { fieldCodes } from '../../shared/schemas/account';
import { useFormEngine, type FormCheck } from './form-engine';

type Schema = v.GenericSchema<unknown, unknown>;

export interface FieldBinding {
  name: string;
  value: string;
  onValueChange: (value: string) => void;
  onBlur: () => void;
  error: string | null;
  invalid: boolean;
}

/**
 * A record form: string fields validated by the shared valibot schema, on the one form engine
 * (form-engine.ts). A field's error is shown only once the field was touched (or a submit was
 * tried), and never for the code 'empty' (spec section 5): such a field is only marked invalid.
 * Codes sent back by the server join those of the schema until the field is edited again.
 *
 * The form reports its unsaved changes (ui/unsaved-changes.ts) while it is mounted: `dirty` is
 * true when a value differs from its baseline — the initial values, values loaded later
 * (`setInitialValues`), or the values of the last successful submit (`markSaved`). Sign-out, the
 * update prompt and the service-worker reload wait for it; an edit page also passes `dirty` to
 * useLeaveConfirmation (routing/leave-confirmation.ts).
 */
export function useForm<K extends string, S extends Schema>(schema: S, initial: Record<K, string>) {
  const validate = useCallback(
    (values: Record<K, string>): FormCheck<v.InferOutput<S>> => {
      const result = v.safeParse(schema, values);
      return result.success ? { success: true, output: result.output } : { success: false, fields: fieldCodes(result.issues) };
    },
    [schema],
  );
  const form = useFormEngine({ initial, validate });
  const { update, load, read } = form;
  // The engine holds values once they are known; a record form knows them from the start.
  const values = form.values ?? initial;

  const setValue = useCallback((name: K, value: string) => update((current) => ({ ...current, [name]: value })), [update]);

  /**
   * Values that come from elsewhere (the server, a link): shown, and not counted as unsaved. A field
   * the user has already changed keeps what they typed: loading never overwrites their input.
   */
  const setInitialValues = useCallback(
    (loaded: Partial<Record<K, string>>) => {
      const { values: current, baseline: before } = read();
      const next = { ...(current ?? initial) };
      const base = before ?? initial;
      for (const name of Object.keys(loaded) as K[]) if (next[name] === base[name]) next[name] = loaded[name]!;
      load(next, { ...base, ...loaded });
    },
    // `initial` is the first render's (the engine keeps it): later ones do not matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [load, read],
  );

  const codes = form.codes as Partial<Record<K, string>>;

  const field = (name: K): FieldBinding => ({
    name,
    value: values[name],
    onValueChange: (value) => setValue(name, value),
    onBlur: () => form.touch(name),
    error: form.errors[name] ?? null,
    invalid: Boolean(codes[name]) && form.shown(name),
  });

  return {
    values,
    /** The parsed values (trimmed, lower-cased email…) when the schema accepts the form. */
    output: form.check?.success ? form.check.output : null,
    isValid: form.check?.success ?? false,
    hasErrors: Object.keys(codes).length > 0,
    /** Values differ from the initial, loaded or last saved ones. */
    dirty: form.dirty,
    field,
    setValue,
    setInitialValues,
    setServerCodes: form.setServerCodes as (codes: Partial<Record<K, string>>) => void,
    /** Marks a submit attempt: every error becomes visible. */
    markSubmitted: form.markSubmitted,
    /** The submit succeeded: the values it sent are saved, so the form is clean until edited again. */
    markSaved: () => form.markSaved(),
    /** Nothing here can be saved any more (e.g. the link was refused): what was typed is not unsaved work. */
    discard: form.discard,
    /** The values and the baseline as they are now, before React has rendered them. */
    read: read as () => { values: Record<K, string> | null; baseline: Record<K, string> | null },
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
