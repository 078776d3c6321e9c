import { useCallback, useMemo, useRef, useState } from 'react';
import * as v from 'valibot';
import { fieldCodes } from '../../shared/schemas/account';
import { messageForCode } from '../../shared/rules/error-codes';

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
 * Form state validated by the shared valibot schema. A field's error is shown only once the field
 * was touched (or a submit was tried), and never for the code 'empty' (spec section 5): such a
 * field is only marked invalid. Codes sent back by the server join those of the schema until the
 * field is edited again.
 */
export function useForm<K extends string, S extends Schema>(schema: S, initial: Record<K, string>) {
  const [values, setValues] = useState<Record<K, string>>(initial);
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverCodes, setServerCodes] = useState<Partial<Record<K, string>>>({});

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

  const shown = (name: K) => Boolean(touched[name]) || submitted;

  const error = (name: K): string | null => {
    const code = codes[name];
    return code && code !== 'empty' && shown(name) ? messageForCode(code) : null;
  };

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
    field,
    setValue,
    setServerCodes,
    /** Marks a submit attempt: every error becomes visible. */
    markSubmitted: () => setSubmitted(true),
  };
}

/**
 * Runs an async action once at a time: a double click or a second Enter does nothing while the
 * first is under way. `busy` drives the button's state.
 */
export function useSubmit<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const latest = useRef(action);
  latest.current = action;
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (...args: A) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await latest.current(...args);
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return { run, busy };
}
