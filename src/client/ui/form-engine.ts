import { useEffect, useId } from 'react';
import { messageForCode } from '../../shared/rules/error-codes';
import { markUnsaved } from '../routing/unsaved-changes';

/**
 * What every form shares, record forms (useForm) and step forms (useStepForm) alike: which codes
 * are shown and in which words, the unsaved mark, and focus on the first error.
 */

/**
 * The messages to show: a code is shown once its field was touched or a submit was tried
 * (`shown`), and never the code 'empty' (spec section 5: such a field is only marked invalid).
 * Server codes (`always`) are shown at once, until their field is edited.
 */
export function visibleErrors(
  codes: Readonly<Record<string, string | undefined>>,
  shown: (path: string) => boolean,
  always: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, code] of Object.entries(codes)) if (code && code !== 'empty' && shown(path)) out[path] = messageForCode(code);
  for (const [path, code] of Object.entries(always)) if (code !== 'empty') out[path] = messageForCode(code);
  return out;
}

/**
 * Reports the form's unsaved changes (app/unsaved-changes.ts) while it is mounted. Two effects,
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

/** Moves focus to the first field with an error (after a refused submit). */
export function focusFirstError(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
