/** Timings and sizes of the screens (spec section 9 where it gives them). */

/** Scroll to top on route change, in ms. */
export const SCROLL_TO_TOP_MS = 600;

/** Modals show after this delay, in ms. */
export const MODAL_DELAY_MS = 10;

/**
 * After a modal's button was clicked, the second click of a double click within this many ms is not
 * passed to what lay under the modal.
 */
export const TRAILING_CLICK_MS = 500;

/** Postcode lookup is throttled to once per this many ms. */
export const POSTCODE_THROTTLE_MS = 500;

/** The screen layout switches to desktop from this width, in px. */
export const DESKTOP_BREAKPOINT_PX = 992;

/** Some calls keep their spinner at least this long (spec section 9). */
export const MIN_LOADING_MS = 1000;
