import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { focusInView, revealInView } from './action-bars';
import './error-summary.css';

/** A field the page shows an error on: its label, its message and the control to focus. */
interface InvalidField {
  controlId: string;
  label: string;
  message: string;
}

/** The page's invalid fields with a message, in the order they are shown (read from the page itself). */
function invalidFieldsIn(scope: HTMLElement): InvalidField[] {
  const found: InvalidField[] = [];
  for (const field of scope.querySelectorAll<HTMLElement>('.field--invalid')) {
    const message = field.querySelector('.field__error')?.textContent?.trim();
    const control = field.querySelector<HTMLElement>('[aria-invalid="true"][id]');
    if (!message || !control) continue;
    const label = field.querySelector('.field__label')?.textContent?.trim() ?? '';
    found.push({ controlId: control.id, label, message });
  }
  return found;
}

function sameFields(a: readonly InvalidField[], b: readonly InvalidField[]): boolean {
  return a.length === b.length && a.every((item, i) => item.controlId === b[i]!.controlId && item.message === b[i]!.message);
}

interface ErrorSummaryProps {
  /** What happened, in the user's terms (a refusal's words, who did what meanwhile). */
  children: ReactNode;
  /** The form whose invalid fields are listed, each a link that focuses its field. */
  fieldsIn?: RefObject<HTMLElement | null>;
  /** Changes whenever the form's messages change (its errors), so the list follows them. */
  fieldsKey?: unknown;
  /** Focus moves to the summary whenever this changes (a new refusal), and when it first shows. */
  focusKey?: unknown;
  title?: string;
  /** Actions about the refusal (view the record, dismiss it). */
  actions?: ReactNode;
}

/**
 * A refusal at the top of the step, as GOV.UK's error summary: brought into view and focused when
 * it appears, so it is read first; it says what happened and lists the fields the page shows an
 * error on, each a link to its field (docs/decisions.md 432).
 */
export function ErrorSummary({
  children,
  fieldsIn,
  fieldsKey,
  focusKey,
  title = 'There is a problem',
  actions,
}: ErrorSummaryProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const [fields, setFields] = useState<InvalidField[]>([]);

  // The list follows the page: a field corrected leaves it.
  useLayoutEffect(() => {
    const scope = fieldsIn?.current;
    const next = scope ? invalidFieldsIn(scope) : [];
    setFields((current) => (sameFields(current, next) ? current : next));
  }, [fieldsIn, fieldsKey]);

  useEffect(() => {
    const summary = ref.current;
    if (!summary) return;
    summary.focus({ preventScroll: true });
    // Read with the page's title (which step) when both fit on the screen.
    revealInView(summary, document.querySelector('main h1'));
  }, [focusKey]);

  return (
    <div ref={ref} className="error-summary" tabIndex={-1} role="alert" aria-labelledby={titleId}>
      <h2 className="error-summary__title" id={titleId}>
        {title}
      </h2>
      <div className="error-summary__body">{children}</div>
      {fields.length > 0 ? (
        <ul className="error-summary__list">
          {fields.map((field) => (
            <li key={field.controlId}>
              <a
                href={`#${field.controlId}`}
                onClick={(event) => {
                  const control = document.getElementById(field.controlId);
                  if (!control) return;
                  event.preventDefault();
                  focusInView(control);
                }}
              >
                {field.label ? `${field.label}: ${field.message}` : field.message}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {actions ? <div className="error-summary__actions">{actions}</div> : null}
    </div>
  );
}
