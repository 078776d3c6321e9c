/** How often a call may be made before it is answered 429 (our own bounds, not in the spec). Both sides read them: the server counts, the forms say why a call waits. */

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

/**
 * New applications per lawyer (or per staff member creating them) within the window: each one
 * emails an invitation to any address, so the portal cannot be used to send mail in bulk.
 * Our own bound (not in the spec: decisions).
 */
export const APPLICATION_CREATES_PER_WINDOW = 30;

export const APPLICATION_CREATE_WINDOW_MS = 60 * 60 * 1000;

/**
 * 'request loan balance' asks staff by email: at most this many per loan within the window, so the
 * button cannot flood the provider's mailbox. Our own bound (not in the spec: decisions).
 */
export const BALANCE_REQUESTS_PER_WINDOW = 3;

export const BALANCE_REQUEST_WINDOW_MS = 60 * 60 * 1000;

/** Corrections of a client's email and new invitations: at most this many per application a window (decision 344). */
export const CLIENT_INVITATIONS_PER_WINDOW = 5;

export const CLIENT_INVITATION_WINDOW_MS = 60 * 60_000;

/**
 * The public calls that carry a link's token (sign-up and reset links: check and set the password;
 * the signing page: open, ask for a code, sign) within the window: per client address over every
 * link, and per link over every address (docs/decisions.md 550). A stranger without the link
 * cannot spend its count; one address cannot try links in bulk. Our own bounds (not in the spec).
 */
export const LINK_CALLS_PER_ADDRESS = 200;

export const LINK_CALLS_PER_LINK = 20;

export const LINK_CALL_WINDOW_MS = 15 * 60 * 1000;

/**
 * Drawdown requests (each emails the provider): per loan and per lawyer (or staff member) within
 * the window, far above what a lawyer's work needs (docs/decisions.md 551). Our own bounds.
 */
export const DRAWDOWN_REQUESTS_PER_LOAN = 20;

export const DRAWDOWN_REQUESTS_PER_REQUESTER = 50;

export const DRAWDOWN_REQUEST_WINDOW_MS = 24 * 60 * 60 * 1000;
