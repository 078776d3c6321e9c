import { useEffect, useRef } from 'react';
import { errorMessages } from '../../shared/rules/error-codes';
import { useSubmit } from '../ui/use-form';
import { useOnline } from '../api/connection';
import { callApi, failureMessage, type ApiAnswer, type Failure } from '../api/failure';
import { BACK_ONLINE_SAVE_AGAIN } from './admin-messages';
import './admin-kit.css';

/**
 * The server's field → code map (400 validation) as codes of the form's own fields: a nested key
 * (`address.postcode`) lands on its last part, and `renames` moves a wire name to a form field
 * (`birthDay` → `birthDayDay`). Codes for fields the form does not have are left out.
 */
export function formCodes(
  fields: Record<string, string>,
  formFields: readonly string[],
  renames: Record<string, string> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, code] of Object.entries(fields)) {
    const candidates = [renames[key], key, key.split('.').pop(), renames[key.split('.')[0] ?? '']];
    const target = candidates.find((name): name is string => Boolean(name) && formFields.includes(name!));
    if (target && !(target in out)) out[target] = code;
  }
  return out;
}

/** What useSaveForm needs of a form (the answer of ui/use-form's useForm). */
interface SavableForm<O> {
  output: O | null;
  markSubmitted: () => void;
  markSaved: () => void;
  setServerCodes: (codes: Record<string, string>) => void;
  read: () => { values: Record<string, string> | null; baseline: Record<string, string> | null };
}

/** Whether any of these fields differs from what the form was loaded with (or last saved). */
export type ChangedFields = (...fields: string[]) => boolean;

/**
 * The body without the parts the person did not change: an edit sends only its changes, so it never
 * puts back what someone else saved meanwhile in a field this page merely showed. `fieldsOf` names
 * the form fields a part is made of (`birthDay` ← day, month, year); a part it does not name is the
 * form field of the same name. `keep` are always sent (the record's id).
 */
export function changedParts<B extends Record<string, unknown>, K extends keyof B>(
  body: B,
  changed: ChangedFields,
  { keep, fieldsOf = {} }: { keep: readonly K[]; fieldsOf?: Partial<Record<keyof B, readonly string[]>> },
): Pick<B, K> & Partial<B> {
  return Object.fromEntries(
    Object.entries(body).filter(([key]) => keep.includes(key as K) || changed(...(fieldsOf[key as keyof B] ?? [key]))),
  ) as Pick<B, K> & Partial<B>;
}

interface SaveFormOptions<O, T> {
  /** The form's field names: a 400's codes for other names are not shown on a field. */
  fields: readonly string[];
  /** Wire names that are shown on another field (`birthDay` → `birthDayDay`). */
  renames?: Record<string, string>;
  /** Sends the parsed values; an edit sends only what `changed` says the person changed (changedParts). */
  call: (output: O, changed: ChangedFields) => Promise<ApiAnswer<T>>;
  /** Saved: the page shows it (toast, redirect, leaving edit mode). */
  onSaved: (data: T) => void | Promise<void>;
  /** The form's message below its buttons (null clears it). */
  setMessage: (message: string | null) => void;
}

/**
 * Saving an administration form, the same on every screen: every message becomes visible; a
 * valid form is sent once at a time; a 400's field codes land on their fields with 'Please check
 * the highlighted fields' below the button, any other failure shows its words there; once saved,
 * the sent values are the form's baseline (Save is disabled again, leaving no longer asks). A save
 * that found no connection says so until the connection is back, then that Save is needed again
 * (the typing waits on the device meanwhile).
 */
export function useSaveForm<O, T>(
  form: SavableForm<O>,
  { fields, renames = {}, call, onSaved, setMessage }: SaveFormOptions<O, T>,
) {
  const online = useOnline();
  const sayingOffline = useRef(false);
  useEffect(() => {
    if (!online || !sayingOffline.current) return;
    sayingOffline.current = false;
    setMessage(BACK_ONLINE_SAVE_AGAIN);
  }, [online, setMessage]);

  return useSubmit(async () => {
    form.markSubmitted();
    setMessage(null);
    sayingOffline.current = false;
    const output = form.output;
    if (!output) return;
    const { values, baseline } = form.read();
    const changed: ChangedFields = (...fields) =>
      !values || !baseline || fields.some((field) => values[field] !== baseline[field]);
    const outcome = await callApi(() => call(output, changed));
    if (!outcome.ok) {
      showSaveFailure(outcome, form.setServerCodes, setMessage, fields, renames);
      sayingOffline.current = outcome.kind === 'offline' && outcome.code !== 'timeout';
      return;
    }
    form.markSaved();
    await onSaved(outcome.data);
  });
}

function showSaveFailure(
  failure: Failure,
  setServerCodes: (codes: Record<string, string>) => void,
  setMessage: (message: string | null) => void,
  fields: readonly string[],
  renames: Record<string, string>,
): void {
  const wire = failure.status === 400 ? failure.body?.fields : undefined;
  const codes = wire ? formCodes(wire, fields, renames) : {};
  if (Object.keys(codes).length > 0) {
    setServerCodes(codes);
    setMessage(errorMessages.validation);
    return;
  }
  setMessage(failureMessage(failure));
}
