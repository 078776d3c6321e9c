import { useCallback, useEffect, useRef, useState } from 'react';
import { useFormEngine, type FormCheck } from '../ui/form-engine';
import { mergeDraftValues, useDraft } from './drafts';
import { useDraftSettle } from './draft-settle';

const sameCodes = (codes: Record<string, string>) => codes;

export interface DraftFormOptions<V, O> {
  /** The device's draft of this form (draft-keys.ts; null: nothing to load yet). */
  draftKey: string | null;
  /** A stored draft (written by any earlier version) back into values, or null when it cannot be used. */
  parseDraft: (stored: unknown) => V | null;
  /**
   * The values when the device keeps no draft (the server's copy, or an empty form), and the
   * baseline either way. Read once per draft key, when the draft is known.
   */
  initial: () => V;
  /** The shared rule the server also runs; keep it stable (useCallback). */
  validate: (values: V) => FormCheck<O>;
  /**
   * The server version the values were built on (0: never saved): kept with every draft write, so a
   * queued save says what it changed. Leave it out for a form whose writes carry no version.
   */
  serverVersion?: number;
  /** The server's field codes under this form's field paths (a refused save, a refused draft). */
  formCodes?: (codes: Record<string, string>) => Record<string, string>;
  /** A code in words for a field (default: the code's words in rules/error-codes.ts). */
  messageFor?: (path: string, code: string) => string;
  /** The same draft typed in another tab shows here, this tab's own typing stays (decision 341). */
  mergeOtherTabs?: boolean;
  /** The fields of a kept draft that count as touched when it comes back (checked at once). */
  touchedWhenRestored?: (values: V) => Iterable<string>;
}

/**
 * A form kept as a draft on the device: the one form engine (ui/form-engine.ts) loaded from the
 * device's draft when there is one (restored after a reload, a crash or days later, with the
 * server's codes if it was refused), else from `initial`, and every change written to the draft
 * right after its frame (offline/drafts.ts). The unsaved mark (update prompt, sign-out) covers what
 * is not yet on the device: it is lifted ~0.4 s after the last keystroke, once the draft is written.
 * The wizard's steps (useStepForm) and the drawdown request use it (docs/decisions.md, 650).
 */
export function useDraftForm<V, O>({
  draftKey,
  parseDraft,
  initial,
  validate,
  serverVersion,
  formCodes = sameCodes,
  messageFor,
  mergeOtherTabs = false,
  touchedWhenRestored,
}: DraftFormOptions<V, O>) {
  const updateRef = useRef<((change: (current: V) => V, options: { byUser: boolean }) => void) | null>(null);
  const onExternalChange = useCallback((theirs: V, base: V) => {
    updateRef.current?.((current) => mergeDraftValues(base, current, theirs) as V, { byUser: false });
  }, []);
  const draft = useDraft<V>(draftKey, parseDraft, mergeOtherTabs ? { onExternalChange } : {});
  const [baseVersion, setBaseVersion] = useState(serverVersion ?? 0);
  // Not yet on the device: the update prompt and sign-out wait for it.
  const settle = useDraftSettle(draft);
  const form = useFormEngine<V, O>({ initial: null, validate, unsaved: settle.pending, ...(messageFor ? { messageFor } : {}) });
  const { load, reset, update, setServerCodes, markSubmitted, touchAll, read } = form;
  updateRef.current = update;

  // What is read once per key, as it is when the draft is known.
  const once = useRef({ initial, serverVersion, formCodes, touchedWhenRestored });
  once.current = { initial, serverVersion, formCodes, touchedWhenRestored };
  const initialised = useRef<string | null>(null);
  const rebaseDraft = draft.rebase;

  // Once per key: the draft if the device has one, else `initial` (the baseline either way).
  useEffect(() => {
    if (!draft.loaded || draftKey === null || initialised.current === draftKey) return;
    initialised.current = draftKey;
    const record = draft.draft;
    const { initial: initialOf, serverVersion: version, formCodes: codesOf, touchedWhenRestored: restored } = once.current;
    const start = initialOf();
    reset();
    rebaseDraft(record ? record.value : start);
    if (record) {
      load(record.value, start);
      setBaseVersion(record.baseVersion);
      if (restored) touchAll(restored(record.value));
      if (record.status === 'rejected') {
        setServerCodes(codesOf(record.serverCodes ?? {}));
        markSubmitted();
      }
    } else {
      load(start);
      setBaseVersion(version ?? 0);
    }
  }, [draft.loaded, draft.draft, rebaseDraft, draftKey, load, reset, touchAll, setServerCodes, markSubmitted]);

  const draftRef = useRef(draft);
  draftRef.current = draft;
  const markChanged = settle.changed;
  const baseVersionRef = useRef(baseVersion);
  baseVersionRef.current = baseVersion;
  const versioned = serverVersion !== undefined;

  /** The user's change: shown, and written to the draft right after its frame. */
  const onChange = useCallback(
    (change: V | ((current: V) => V)) => {
      const current = read().values;
      if (current === null) return;
      const next = typeof change === 'function' ? (change as (current: V) => V)(current) : change;
      update(next);
      draftRef.current.save(next, versioned ? { baseVersion: baseVersionRef.current } : undefined);
      markChanged();
    },
    [read, update, versioned, markChanged],
  );

  return {
    ...form,
    loaded: form.values !== null,
    onChange,
    /** The server refused the values: its codes (under this form's paths) go on the fields until edited. */
    setServerCodes: useCallback(
      (codes: Record<string, string>) => setServerCodes(once.current.formCodes(codes)),
      [setServerCodes],
    ),
    /** Every change is written to the device's draft (a reload or a closed tab loses nothing). */
    keptOnDevice: !settle.pending && draft.loaded,
    /** The server version the draft is built on. */
    baseVersion,
    draft,
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

export type DraftForm<V, O> = ReturnType<typeof useDraftForm<V, O>>;
