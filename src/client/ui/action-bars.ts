import { useEffect, useState } from 'react';

/**
 * The action bars on screen (ActionBar): below 992 px each sticks to the bottom of the screen, so
 * what it points to must never end up behind it, and nothing may cover it (docs/decisions.md 434).
 * The bars' height is kept in `--action-bar-height` on the root element (the page's
 * scroll-padding-bottom, so the browser's own scrolling to a focused field leaves room for it);
 * `revealInView` scrolls with it accounted for; `useActionBarClearance` tells the toasts how far
 * above the bottom of the screen they must stay.
 */

const bars = new Set<HTMLElement>();
const listeners = new Set<() => void>();
let observer: ResizeObserver | null = null;

function isSticky(bar: HTMLElement): boolean {
  return getComputedStyle(bar).position === 'sticky';
}

/** The height of the sticky bars (0 when none sticks: a desktop, or no bar). */
export function stickyBarHeight(): number {
  let height = 0;
  for (const bar of bars) if (isSticky(bar)) height = Math.max(height, bar.getBoundingClientRect().height);
  return Math.ceil(height);
}

function changed(): void {
  const height = stickyBarHeight();
  const root = document.documentElement;
  if (height > 0) root.style.setProperty('--action-bar-height', `${height}px`);
  else root.style.removeProperty('--action-bar-height');
  listeners.forEach((listener) => listener());
}

/** An action bar is on screen until the returned function is called. */
export function registerActionBar(bar: HTMLElement): () => void {
  bars.add(bar);
  if (typeof ResizeObserver !== 'undefined') {
    observer ??= new ResizeObserver(changed);
    observer.observe(bar);
  }
  if (bars.size === 1) window.addEventListener('resize', changed);
  changed();
  return () => {
    bars.delete(bar);
    observer?.unobserve(bar);
    if (bars.size === 0) window.removeEventListener('resize', changed);
    changed();
  };
}

/** How far above the bottom of the screen the bars on screen reach (0 when none is in view). */
export function actionBarClearance(): number {
  const bottom = window.innerHeight;
  let clearance = 0;
  for (const bar of bars) {
    const rect = bar.getBoundingClientRect();
    if (rect.height === 0 || rect.bottom <= 0 || rect.top >= bottom) continue;
    clearance = Math.max(clearance, bottom - rect.top);
  }
  return Math.ceil(clearance);
}

/** `actionBarClearance`, followed as the page scrolls, resizes and its bars come and go. */
export function useActionBarClearance(): number {
  const [clearance, setClearance] = useState(actionBarClearance);
  useEffect(() => {
    let frame = 0;
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setClearance(actionBarClearance()));
    };
    listeners.add(update);
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    update();
    return () => {
      cancelAnimationFrame(frame);
      listeners.delete(update);
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, []);
  return clearance;
}

/** Room kept above and below what is brought into view. */
const MARGIN_PX = 16;

/**
 * Scrolls the page, only if needed, so the element is wholly in view between the top of the screen
 * and the sticky bar (its top first, when it is taller than that room). With `from` (the page's
 * title above it), the title is kept in view too whenever both fit.
 */
export function revealInView(element: Element, from?: Element | null): void {
  const rect = element.getBoundingClientRect();
  const top = MARGIN_PX;
  const bottom = window.innerHeight - stickyBarHeight() - MARGIN_PX;
  const start = from ? Math.min(from.getBoundingClientRect().top, rect.top) : rect.top;
  let by = 0;
  if (from && rect.bottom - start <= bottom - top && (start < top || rect.bottom > bottom)) by = start - top;
  else if (rect.top < top || rect.height > bottom - top) by = rect.top - top;
  else if (rect.bottom > bottom) by = rect.bottom - bottom;
  if (by !== 0) window.scrollBy({ top: by, behavior: 'instant' });
}

/** Focuses a control and brings its whole field (its label, its message) into view above the bars. */
export function focusInView(control: HTMLElement): void {
  control.focus({ preventScroll: true });
  revealInView(control.closest('.field') ?? control);
}

/**
 * Moves focus to the first field with an error (after a refused submit), its label and message in
 * view above the sticky action bar (docs/decisions.md 435). Here, not in the form engine: the
 * sign-in page needs neither.
 */
export function focusFirstError(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => {
    const first = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (first) focusInView(first);
  });
}
