import { Link } from 'react-router-dom';
import type { FormStep } from '../../../shared/journey/steps';

export interface StepBarItem {
  step: FormStep;
  title: string;
  /** A link to the step, or null when it cannot be opened (locked, unreachable, not created yet). */
  href: string | null;
  complete: boolean;
}

/**
 * The step indicator: every step in order, the current one marked, completed ones ticked, the ones
 * that cannot be opened yet shown disabled (not links). It scrolls sideways on a phone rather than
 * wrapping, so its height never changes.
 */
export function StepBar({ items, current }: { items: readonly StepBarItem[]; current: FormStep }) {
  return (
    <nav className="step-bar" aria-label="Application steps">
      <ol className="step-bar__list">
        {items.map((item, index) => {
          const active = item.step === current;
          const state = active ? 'active' : item.href === null ? 'disabled' : item.complete ? 'complete' : 'open';
          const content = (
            <>
              <span className="step-bar__number" aria-hidden="true">
                {item.complete && !active ? '✓' : index + 1}
              </span>
              <span className="step-bar__title">{item.title}</span>
              {item.complete ? <span className="visually-hidden"> (completed)</span> : null}
              {item.href === null && !active ? <span className="visually-hidden"> (not available yet)</span> : null}
            </>
          );
          return (
            <li key={item.step} className={`step-bar__item step-bar__item--${state}`}>
              {active ? (
                <span className="step-bar__link" aria-current="step">
                  {content}
                </span>
              ) : item.href ? (
                <Link className="step-bar__link" to={item.href}>
                  {content}
                </Link>
              ) : (
                <span className="step-bar__link" aria-disabled="true">
                  {content}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
