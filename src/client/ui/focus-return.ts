/**
 * Where the keyboard focus goes once a confirmation closes (docs/decisions.md (461)). Back to the
 * control that opened it after Escape, 'No' or 'ok'; after 'Yes' too, and it is followed while the
 * action runs: if that control goes (an approved drawdown's 'approve'), or can no longer take the
 * focus, the focus moves to the next sensible place instead of falling to the page body, where the
 * next Shift+Tab would land in the footer.
 */

/** The place a screen names for the focus when the control that opened its confirmation is gone. */
export type FocusLanding = () => HTMLElement | null | undefined;

/** What opened a dialog: the control that had the focus and the containers around it, nearest first. */
export interface FocusOrigin {
  opener: HTMLElement | null;
  containers: readonly Element[];
}

/** How long an action's end is waited for after 'Yes' (an answer from a slow server included). */
export const FOLLOW_ACTION_MS = 60_000;

/** Containers whose heading is the next place when the control inside them is gone. */
const PLACES = 'section, form, fieldset, [role="region"], [role="group"], main';
const HEADINGS = 'h1, h2, h3, legend';

/** A confirmation's own buttons are never an opener (that confirmation is closing); a menu's are. */
const DIALOG = '[role="alertdialog"]';

const lostFocus = () => {
  const active = document.activeElement;
  return active === null || active === document.body || active === document.documentElement;
};

/** The element with the focus now and its containers, for a dialog about to open. */
export function captureOrigin(): FocusOrigin {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active === document.body || active.closest(DIALOG)) {
    return { opener: null, containers: [] };
  }
  const containers: Element[] = [];
  for (let at = active.parentElement; at && at !== document.body; at = at.parentElement) containers.push(at);
  return { opener: active, containers };
}

/** True when the element is still on the page and may take the focus (not removed, disabled or hidden). */
export function canTakeFocus(element: Element | null | undefined): element is HTMLElement {
  if (!(element instanceof HTMLElement) || !element.isConnected) return false;
  if (element.matches(':disabled') || element.closest('[hidden], [inert]')) return false;
  // Not drawn (display: none somewhere above); jsdom has no layout and no checkVisibility.
  return typeof element.checkVisibility === 'function' ? element.checkVisibility() : true;
}

/** Focuses a place that may not be a control (a status, a notice, a heading) without making it a Tab stop. */
export function focusPlace(element: HTMLElement): void {
  if (element.tabIndex < 0 && !element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.focus();
}

/** The page's one heading (every page's h1 takes the focus: tabIndex -1). */
function pageHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('main h1');
}

/**
 * Where the focus goes without a place named by the screen: the heading of the nearest container
 * of the opener still on the page (the documents list after a file's 'delete'), else the page's h1.
 */
function nearestPlace(origin: FocusOrigin): HTMLElement | null {
  for (const container of origin.containers) {
    if (!container.isConnected || !container.matches(PLACES)) continue;
    const heading = container.querySelector<HTMLElement>(HEADINGS);
    if (heading && canTakeFocus(heading)) return heading;
  }
  return pageHeading();
}

/** The record's own status on its page (the badge or text its page marks with data-record-status). */
export function recordStatus(): HTMLElement | null {
  return document.querySelector<HTMLElement>('main [data-record-status]');
}

/**
 * The place after a record's action (docs/decisions.md (461)): the notice the action left in its
 * section (the refusal, or the decision waiting on the device to be sent), else the record's status.
 */
export function noticeOrStatus(section: HTMLElement | null): HTMLElement | null {
  const notices = section ? [...section.querySelectorAll<HTMLElement>('[role="alert"], [role="status"]')] : [];
  return notices.find((notice) => notice.textContent?.trim()) ?? recordStatus();
}

/** The screen's own place first (a notice, the record's new status), else the nearest one. */
function placeAfter(origin: FocusOrigin, landing: FocusLanding | undefined): HTMLElement | null {
  const named = landing?.();
  return named && named.isConnected ? named : nearestPlace(origin);
}

let stopFollowing: (() => void) | null = null;

/**
 * Watches the opener while the confirmed action runs: when the focus falls to the body because the
 * opener went or can no longer take it, the focus goes to the next place, and again if that place
 * goes in turn (a notice shown while the action is sent, then the record's new status). It stops
 * once the focus is somewhere else by any other means (the person moved it, the screen focused an
 * error or a new page's heading), at the person's next pointer press, or after FOLLOW_ACTION_MS.
 */
function follow(origin: FocusOrigin & { opener: HTMLElement }, landing: FocusLanding | undefined): void {
  const { opener } = origin;
  let holder: HTMLElement = opener;
  let scheduled = 0;
  const check = () => {
    scheduled = 0;
    if (!lostFocus()) return;
    const place = canTakeFocus(opener) ? opener : placeAfter(origin, landing);
    if (!place) return; // A page still loading: its heading comes with a later change.
    holder = place;
    focusPlace(place);
  };
  const schedule = () => {
    if (scheduled === 0) scheduled = window.setTimeout(check, 0);
  };
  const onFocusIn = (event: FocusEvent) => {
    if (event.target !== opener && event.target !== holder) stop();
  };
  const observer = new MutationObserver(schedule);
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden'] });
  document.addEventListener('focusout', schedule, true);
  document.addEventListener('focusin', onFocusIn, true);
  document.addEventListener('pointerdown', stop, true);
  const timer = window.setTimeout(stop, FOLLOW_ACTION_MS);
  function stop() {
    observer.disconnect();
    document.removeEventListener('focusout', schedule, true);
    document.removeEventListener('focusin', onFocusIn, true);
    document.removeEventListener('pointerdown', stop, true);
    window.clearTimeout(timer);
    window.clearTimeout(scheduled);
    if (stopFollowing === stop) stopFollowing = null;
  }
  stopFollowing = stop;
}

/**
 * The focus after a dialog closed: the opener when it can take it, else the screen's place (or the
 * nearest one). After the dialog's action ('Yes') the opener is followed until the action is over.
 */
export function returnFocus(origin: FocusOrigin, options: { landing?: FocusLanding | undefined; afterAction: boolean }): void {
  stopFollowing?.();
  const { opener } = origin;
  // Nothing had the focus (a tap on a browser that does not focus buttons): nothing to give back,
  // and moving it would scroll the page away from where the person is.
  if (!opener) return;
  if (canTakeFocus(opener)) opener.focus();
  else {
    const place = placeAfter(origin, options.landing);
    if (place) focusPlace(place);
  }
  if (options.afterAction) follow({ ...origin, opener }, options.landing);
}
