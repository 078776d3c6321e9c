import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type * as v from 'valibot';
import { useForm, type FieldBinding } from '../ui/use-form';
import { useDraft } from './drafts';
import { useDraftSettle } from './draft-settle';

type Schema = v.GenericSchema<unknown, unknown>;

/** What was typed on this device: only the fields that differ from what the form started from. */
type Typed<K extends string> = Partial<Record<K, string>>;

/** A stored value back into typed fields of this form (a field it no longer has is left out). */
function typedFieldsOf<K extends string>(names: readonly K[]) {
  return (stored: unknown): Typed<K> | null => {
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return null;
    const typed: Typed<K> = {};
    for (const name of names) {
      const value = (stored as Record<string, unknown>)[name];
      if (typeof value === 'string') typed[name] = value;
    }
    return typed;
  };
}

export interface KeptRecordFormOptions {
  /** The device's draft of this form (draft-keys.ts): one per record, or one for a new record. */
  draftKey: string;
}

/**
 * A record form (ui/use-form.ts) whose typing is kept on the device as it is typed, for the
 * administration's add and edit screens (docs/decisions.md 726): a reload, a crash or a closed tab
 * gives it back on its fields, unsaved. Only the fields that differ from the record are kept, so
 * what someone else changed in the others since is not written back. Saved, discarded or left with
 * the spec's question answered 'Yes', the typing is gone from the device too; typed back to what
 * the record holds, there is nothing to keep.
 */
export function useKeptRecordForm<K extends string, S extends Schema>(
  schema: S,
  initial: Record<K, string>,
  { draftKey }: KeptRecordFormOptions,
) {
  const form = useForm(schema, initial);
  const names = useRef(Object.keys(initial) as K[]).current;
  const parse = useMemo(() => typedFieldsOf(names), [names]);
  const draft = useDraft<Typed<K>>(draftKey, parse);
  const { setValue: setFormValue, read } = form;
  const [restored, setRestored] = useState(false);
  const restoredKey = useRef<string | null>(null);
  const settle = useDraftSettle(draft);
  const { changed: markChanged, stop: stopSettling } = settle;
  const draftRef = useRef(draft);
  draftRef.current = draft;

  // Once per key, when the kept typing is known: it goes back on its fields (the record's values are
  // the form's from the start), except on a field already typed in since the screen opened.
  useEffect(() => {
    if (!draft.loaded || restoredKey.current === draftKey) return;
    restoredKey.current = draftKey;
    const typed = draft.draft?.value;
    const { values, baseline } = read();
    if (!typed || !values || !baseline) return;
    const back = (Object.entries(typed) as [K, string][]).filter(([name]) => values[name] === baseline[name]);
    for (const [name, value] of back) setFormValue(name, value);
    if (back.length > 0) setRestored(true);
  }, [draft.loaded, draft.draft, draftKey, read, setFormValue]);

  /** The user's change: shown, and what now differs from the record kept on the device. */
  const setValue = useCallback(
    (name: K, value: string) => {
      setFormValue(name, value);
      const { values, baseline } = read();
      if (!values || !baseline) return;
      const typed: Typed<K> = {};
      for (const field of names) if (values[field] !== baseline[field]) typed[field] = values[field];
      // Typed back to the record: nothing to keep. The kept typing goes once typing pauses, not at
      // each keystroke, so a removal never lands after a later keystroke's write.
      const nothingTyped = Object.keys(typed).length === 0;
      if (nothingTyped) markChanged((current) => current.clear());
      else {
        draftRef.current.save(typed);
        markChanged();
      }
    },
    [setFormValue, read, names, markChanged],
  );

  const forget = useCallback(() => {
    stopSettling();
    return draftRef.current.clear();
  }, [stopSettling]);

  const { field: formField, markSaved: formMarkSaved, discard: formDiscard } = form;
  return {
    ...form,
    setValue,
    field: (name: K): FieldBinding => ({ ...formField(name), onValueChange: (value) => setValue(name, value) }),
    /** Saved: the form is clean, and the typing leaves the device. */
    markSaved: () => {
      formMarkSaved();
      void forget();
    },
    /** Nothing here can be saved any more: the typing leaves the device too. */
    discard: () => {
      formDiscard();
      void forget();
    },
    /** For useLeaveConfirmation: leaving with 'Yes' to 'Changes will not be saved' forgets the typing. */
    forget,
    /** The typing is written on the device: a reload or a closed tab loses nothing. */
    keptOnDevice: draft.loaded && !settle.pending,
    /** Typing kept from an earlier visit came back on the fields (an edit screen opens its form). */
    restored,
  };
}
