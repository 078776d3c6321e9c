import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { FormStep } from '../../../../shared/journey/steps';

export interface StepBarItem {
  step: FormStep;
  title: string;
  /** A link to the step, or null when it cannot be opened (locked, unreachable, not created yet). */
  href: string | null;
  /** Saved and accepted: ticked. */
  complete: boolean;
  /** Saved, but the submit would refuse it now (a file deleted since, say): marked for attention. */
  attention?: boolean;
}

/** How far the list may be scrolled either way: the fades and arrows show only where there is more. */
interface More {
  before: boolean;
  after: boolean;
}

/** Pixels of slack, so a rounding leftover does not show a fade. */
const SLACK = 2;

function moreOf(list: HTMLElement): More {
  const max = list.scrollWidth - list.clientWidth;
  return { before: list.scrollLeft > SLACK, after: list.scrollLeft < max - SLACK };
}

/**
 * The step indicator: every step in order, the current one marked, completed ones ticked, the ones
 * that cannot be opened yet shown disabled (not links). It scrolls sideways rather than wrapping, so
 * its height never changes; the current step is scrolled into view, and faded edges with arrow
 * buttons show that there are more steps either side (decision 335). While it overflows, the row
 * itself can take the focus, so it can be scrolled from the keyboard even when no step is a link
 * (the new application's bar).
 *
 * On a phone (below 600 px) a long step name is cut by the row's edge, so the row ends with 'all
 * steps', which lists every step on a line of its own, each name in full (docs/decisions.md 451).
 */
export function StepBar({ items, current }: { items: readonly StepBarItem[]; current: FormStep }) {
  const listRef = useRef<HTMLOListElement>(null);
  const listId = useId();
  const [more, setMore] = useState<More>({ before: false, after: false });
  const [open, setOpen] = useState(false);

  const measure = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    const next = moreOf(list);
    setMore((previous) => (previous.before === next.before && previous.after === next.after ? previous : next));
  }, []);

  // The current step in the middle of the row (never the page: only the row scrolls).
  useLayoutEffect(() => {
    const list = listRef.current;
    const active = list?.querySelector<HTMLElement>('[aria-current="step"]')?.closest('li');
    if (!list || !active) return;
    const target = active.offsetLeft - (list.clientWidth - active.offsetWidth) / 2;
    list.scrollLeft = Math.max(0, Math.min(target, list.scrollWidth - list.clientWidth));
    measure();
  }, [current, items.length, measure]);

  useEffect(() => {
    const list = listRef.current;
    if (!list) return undefined;
    measure();
    list.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(list);
    window.addEventListener('resize', measure);
    return () => {
      list.removeEventListener('scroll', measure);
      observer?.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [measure]);

  const scrollBy = (direction: -1 | 1) => {
    const list = listRef.current;
    if (!list) return;
    list.scrollBy({ left: direction * list.clientWidth * 0.6, behavior: 'smooth' });
  };

  const overflowing = more.before || more.after;
  const classes = [
    'step-bar',
    more.before ? 'step-bar--more-before' : '',
    more.after ? 'step-bar--more-after' : '',
    open ? 'step-bar--open' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <nav className={classes} aria-label="Application steps">
      {/* Pointer helpers; keyboard users scroll the focusable row itself (or tab through its links). */}
      <button
        type="button"
        className="step-bar__arrow step-bar__arrow--before"
        aria-hidden="true"
        tabIndex={-1}
        hidden={!more.before}
        onClick={() => scrollBy(-1)}
      >
        ‹
      </button>
      <ol
        ref={listRef}
        id={listId}
        className="step-bar__list"
        tabIndex={overflowing ? 0 : undefined}
        aria-label={overflowing ? 'Application steps, scroll sideways for more' : undefined}
      >
        {items.map((item, index) => {
          const active = item.step === current;
          const state = active
            ? 'active'
            : item.href === null
              ? 'disabled'
              : item.complete
                ? 'complete'
                : item.attention
                  ? 'attention'
                  : 'open';
          const mark = item.complete && !active ? '✓' : item.attention && !active ? '!' : index + 1;
          const content = (
            <>
              <span className="step-bar__number" aria-hidden="true">
                {mark}
              </span>
              <span className="step-bar__title">{item.title}</span>
              {item.complete ? <span className="visually-hidden"> (completed)</span> : null}
              {item.attention ? <span className="visually-hidden"> (needs attention)</span> : null}
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
      <button
        type="button"
        className="step-bar__arrow step-bar__arrow--after"
        aria-hidden="true"
        tabIndex={-1}
        hidden={!more.after}
        onClick={() => scrollBy(1)}
      >
        ›
      </button>
      {/* Phones only (CSS): every step's name in full, one a line. */}
      <button
        type="button"
        className="step-bar__toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        {open ? 'hide steps' : 'all steps'}
      </button>
    </nav>
  );
}
