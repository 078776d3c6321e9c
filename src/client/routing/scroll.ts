import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { SCROLL_TO_TOP_MS } from '../../shared/rules/ui-timings';

let frame = 0;
/** What `scrollToTop` holds the page's height with, while it runs. */
let held = false;
/** Removes the listeners that stop the running animation when the user acts. */
let stopListening = (): void => {};

/** What the user does that takes the page from the animation, as the browser's own smooth scrolling gives way. */
const USER_INPUT = ['pointerdown', 'touchstart', 'wheel', 'keydown'] as const;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * The page may not be shorter than where the animation starts: a new page shorter than the old
 * scroll position would otherwise be clamped to its end at once, a jump (decision 339).
 */
function holdHeight(from: number): void {
  document.documentElement.style.minHeight = `${Math.ceil(from + window.innerHeight)}px`;
  held = true;
}

function releaseHeight(): void {
  if (!held) return;
  document.documentElement.style.minHeight = '';
  held = false;
}

/**
 * Ends the animation where the page is now. A tap during it would otherwise press on one element
 * and lift over another that scrolled under the finger, and the press would do nothing.
 */
function stopAnimation(): void {
  cancelAnimationFrame(frame);
  stopListening();
  stopListening = () => {};
  releaseHeight();
}

function stopOnUserInput(): void {
  const options = { capture: true, passive: true } as const;
  for (const type of USER_INPUT) window.addEventListener(type, stopAnimation, options);
  stopListening = () => {
    for (const type of USER_INPUT) window.removeEventListener(type, stopAnimation, options);
  };
}

/**
 * Scrolls the window to the top over the spec's 600 ms (ease-out), or at once when the user asks
 * for reduced motion. Native smooth scrolling cannot be given a duration, hence the frames. `from`
 * is where the page was before it changed (the new page may already be shorter). It gives way as
 * the browser's own smooth scrolling does: the user's press, touch, wheel or key stops it, and so
 * does any other scroll (a focused field brought into view, the scrollbar dragged).
 */
export function scrollToTop(durationMs = SCROLL_TO_TOP_MS, from = window.scrollY): void {
  stopAnimation();
  const start = Math.max(from, window.scrollY);
  if (start <= 0) return;
  if (durationMs <= 0 || prefersReducedMotion()) {
    window.scrollTo(0, 0);
    return;
  }
  if (window.scrollY < start) {
    holdHeight(start);
    window.scrollTo(0, start);
  }
  const startedAt = performance.now();
  /** Where the last frame left the page; the browser may round it, hence the pixel of slack. */
  let leftAt = window.scrollY;
  const step = (now: number) => {
    if (Math.abs(window.scrollY - leftAt) > 1) {
      stopAnimation();
      return;
    }
    const progress = Math.min(1, (now - startedAt) / durationMs);
    const eased = 1 - (1 - progress) ** 3;
    window.scrollTo(0, Math.round(start * (1 - eased)));
    leftAt = window.scrollY;
    if (progress < 1) frame = requestAnimationFrame(step);
    else stopAnimation();
  };
  stopOnUserInput();
  frame = requestAnimationFrame(step);
}

/**
 * On every route change the page goes back to the top (spec: 600 ms), from where the previous page
 * was scrolled to: it is measured before the new page is drawn. Not on the first load: there is no
 * page before it, and reading the scroll position there laid the whole new page out inside React's
 * first commit, one long task more on a slow phone.
 */
export function useScrollToTopOnRouteChange(): void {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  const lastY = useRef(0);
  useEffect(() => {
    const onScroll = () => {
      lastY.current = window.scrollY;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useLayoutEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    scrollToTop(SCROLL_TO_TOP_MS, lastY.current);
  }, [pathname]);
}

/** The page's one h1 (tabIndex -1 on every page: Page and PublicPage) takes the focus. */
export function focusPageHeading(): void {
  const heading = document.querySelector<HTMLElement>('main h1');
  heading?.focus({ preventScroll: true });
}

/**
 * After a route change, public or private, the new page's heading takes the focus: screen readers
 * announce the new page and keyboard users continue from its top. Not on the first load, nor on
 * the redirects that belong to it (/ → /applications, a private page → /sign-in): the focus is
 * moved only once the user has done something (pressed, typed, or moved through the history).
 * Used once, by the root route (app/root.tsx).
 */
export function useFocusHeadingOnNavigation(): void {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  const userActed = useRef(false);

  useEffect(() => {
    const onAction = () => {
      userActed.current = true;
    };
    const events = ['pointerdown', 'keydown', 'popstate'] as const;
    for (const type of events) window.addEventListener(type, onAction, { capture: true });
    return () => {
      for (const type of events) window.removeEventListener(type, onAction, { capture: true });
    };
  }, []);

  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    if (userActed.current) focusPageHeading();
  }, [pathname]);
}
