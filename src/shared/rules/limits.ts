/** Every numeric limit of the specification, named once and used by both sides. */

/** Sessions end after 30 hours without activity (spec: 108000000 ms). */
export const SESSION_IDLE_TIMEOUT_MS = 108_000_000;
/** Password minimum length (spec section 5). */
export const PASSWORD_MIN_LENGTH = 8;
/** Our own upper bound: argon2 input stays small and bounded (not in the spec). */
export const PASSWORD_MAX_LENGTH = 128;
/** Text inputs are truncated to this length by default. */
export const TEXT_MAX_LENGTH = 100_000;
/** Emails are at most 254 characters (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** Scroll to top on route change, in ms. */
export const SCROLL_TO_TOP_MS = 600;
/** Modals show after this delay, in ms. */
export const MODAL_DELAY_MS = 10;
/** Postcode lookup is throttled to once per this many ms. */
export const POSTCODE_THROTTLE_MS = 500;
/** The screen layout switches to desktop from this width, in px. */
export const DESKTOP_BREAKPOINT_PX = 992;
/** Invitation links stay valid this long (not in the spec: docs/decisions.md). */
export const INVITATION_TTL_MS = 14 * 24 * 60 * 60 * 1000;
/** Password reset links stay valid this long (not in the spec: docs/decisions.md). */
export const RESET_TTL_MS = 60 * 60 * 1000;
/**
 * Sign-in attempts that may fail within the window before 429: per address over all accounts,
 * per account from one address, and per account over all addresses (stops distributed guessing,
 * while a stranger failing from one place cannot lock an account). Checked in that order.
 */
export const SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS = 5;
export const SIGN_IN_MAX_FAILURES_PER_ADDRESS = 20;
export const SIGN_IN_MAX_FAILURES_PER_ACCOUNT = 50;
/** The window over which sign-in failures are counted. */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Password reset emails: per account and per address within the window. */
export const RESET_MAX_PER_ACCOUNT = 5;
export const RESET_MAX_PER_ADDRESS = 20;
export const RESET_WINDOW_MS = 15 * 60 * 1000;
/** Default paging of general lists: 10 per page, 5 page links. */
export const PAGE_SIZE = 10;
export const PAGE_LINKS = 5;
