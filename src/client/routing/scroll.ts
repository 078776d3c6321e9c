import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { SCROLL_TO_TOP_MS } from '../../shared/rules/ui-timings';

let frame = 0;
/** The page's height `scrollToTop` holds, in pixels, while the animation needs it; 0 when none. */
let heldTo = 0;
/** Removes the listeners that stop the running animation when the user acts. */
let stopListening = (): void => {};
/** Removes the listener that lets go of the held height as the user scrolls up. */
let stopLettingGo = (): void => {};

/** What the user does that takes the page from the animation, as the browser's own smooth scrolling gives way. */
const USER_INPUT = ['pointerdown', 'touchstart', 'wheel', 'keydown'] as const;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * The page may not be shorter than where the animation starts: a new page shorter than the old
 * scroll position would otherwise be clamped to its end at once, a jump (decision 339).
 */
function holdHeight(to: number): void {
  heldTo = Math.ceil(to);
  document.documentElement.style.minHeight = `${heldTo}px`;
}

function releaseHeight(): void {
  stopLettingGo();
  stopLettingGo = () => {};
  if (heldTo === 0) return;
  document.documentElement.style.minHeight = '';
  heldTo = 0;
}

/**
 * Lets go of the held height without moving the page. Released at once, it would clamp a page
 * scrolled past the new page's end: what is in view would jump, under a finger that has just
 * pressed, and the press would lift over something else and do nothing. So only what is below the
 * view goes: the hold shrinks to the view's bottom as the user scrolls up, never grows, and ends
 * once the page's own content reaches past it.
 */
function letGoOfHeight(): void {
  if (heldTo === 0) return;
  const shrink = () => {
    const bottom = Math.ceil(window.scrollY + window.innerHeight);
    if (bottom < heldTo) holdHeight(bottom);
    if (document.documentElement.scrollHeight > heldTo) releaseHeight();
  };
  shrink();
  if (heldTo === 0) return;
  window.addEventListener('scroll', shrink, { passive: true });
  stopLettingGo = () => window.removeEventListener('scroll', shrink);
}

function cancelAnimation(): void {
  cancelAnimationFrame(frame);
  stopListening();
  stopListening = () => {};
}

/** Ends the animation where the page is now, when the user acts or something else scrolls. */
function giveWay(): void {
  cancelAnimation();
  letGoOfHeight();
}

function stopOnUserInput(): void {
  const options = { capture: true, passive: true } as const;
  for (const type of USER_INPUT) window.addEventListener(type, giveWay, options);
  stopListening = () => {
    for (const type of USER_INPUT) window.removeEventListener(type, giveWay, options);
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
  cancelAnimation();
  releaseHeight();
  const start = Math.max(from, window.scrollY);
  if (start <= 0) return;
  if (durationMs <= 0 || prefersReducedMotion()) {
    window.scrollTo(0, 0);
    return;
  }
  if (window.scrollY < start) {
    holdHeight(start + window.innerHeight);
    window.scrollTo(0, start);
  }
  const startedAt = performance.now();
  /** Where the last frame left the page; the browser may round it, hence the pixel of slack. */
  let leftAt = window.scrollY;
  const step = (now: number) => {
    if (Math.abs(window.scrollY - leftAt) > 1) {
      giveWay();
      return;
    }
    const progress = Math.min(1, (now - startedAt) / durationMs);
    const eased = 1 - (1 - progress) ** 3;
    window.scrollTo(0, Math.round(start * (1 - eased)));
    leftAt = window.scrollY;
    if (progress < 1) frame = requestAnimationFrame(step);
    else {
      // At the top nothing can be clamped: the hold goes at once.
      cancelAnimation();
      releaseHeight();
    }
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
