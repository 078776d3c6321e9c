import { useId, type ReactNode } from 'react';
import './field.css';

/**
 * The parts every labelled control shares with TextField: ids for the hint and the message, the
 * aria-describedby list, and the message slot that is always one line high.
 */
export function useFieldIds(
  id: string | undefined,
  hint: string | undefined,
  error: string | null | undefined,
  describedBy?: string,
) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const labelId = `${controlId}-label`;
  const describers = [hint ? hintId : null, error ? errorId : null, describedBy ?? null].filter(Boolean).join(' ');
  return { controlId, hintId, errorId, labelId, describers: describers || undefined };
}

export function fieldClass(invalid: boolean, className?: string, extra?: string): string {
  return ['field', extra ?? '', invalid ? 'field--invalid' : '', className ?? ''].filter(Boolean).join(' ');
}

export function FieldHint({ id, hint }: { id: string; hint?: ReactNode }) {
  if (!hint) return null;
  return (
    <p id={id} className="field__hint">
      {hint}
    </p>
  );
}

/** Always there and one line high: a message appearing moves nothing (and is announced). */
export function ErrorSlot({ id, error }: { id: string; error?: string | null }) {
  return (
    <div className="field__error-slot" aria-live="polite">
      {error ? (
        <p id={id} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Focus left the element and everything inside it (a group of radios, the two date selects). */
export function leftGroup(event: { currentTarget: Element; relatedTarget: EventTarget | null }): boolean {
  const next = event.relatedTarget;
  return !(next instanceof Node && event.currentTarget.contains(next));
}
