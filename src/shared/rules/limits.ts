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
/** Our own bound on a list's page number (openapi `page` maximum): any later page is empty anyway. */
export const PAGE_MAX = 1_000_000;
/** Our own bound on a list's search text (openapi `search` maxLength). */
export const SEARCH_MAX_LENGTH = 200;
/** Uploads: each file at most 20 MB (spec section 9). */
export const UPLOAD_MAX_BYTES = 20 * 1024 * 1024;
/** The same limit in MB, for the 'file size exceeds' message. */
export const UPLOAD_MAX_MB = 20;
/** Uploads: at most 20 files per application by default (spec section 9). */
export const UPLOAD_MAX_FILES = 20;
/** The documents (Form E) step holds at most 10 files (spec section 9). */
export const FORM_E_MAX_FILES = 10;
/** Accepted upload extensions by default (spec section 9: only .pdf). */
export const UPLOAD_EXTENSIONS = ['.pdf'] as const;
/** The address history must cover 2 years (spec section 9). */
export const ADDRESS_HISTORY_DAYS = 730;
/** Our own bound: at most this many addresses in a history (openapi maxItems). */
export const ADDRESS_HISTORY_MAX = 50;
/** The birth-year list holds 88 years (spec section 9). */
export const BIRTH_YEARS = 88;
/** The birth-year list ends this many years before the current year (spec section 3, "about 12"). */
export const BIRTH_YEARS_END_OFFSET = 12;
/** Dependant counts 0 to 29 (spec section 9). */
export const DEPENDANTS_MAX = 29;
/** Our own bound: at most this many assets (openapi maxItems). */
export const ASSETS_MAX = 50;
/** Cash holdings change their label at £5,000 (spec section 3). */
export const CASH_LABEL_THRESHOLD_POUNDS = 5000;
/** The independent legal advice fee text (spec section 9). */
export const INDEPENDENT_ADVICE_FEE = '£250 plus VAT';
/** Independent legal advice uses six documents (spec section 9). */
export const INDEPENDENT_ADVICE_DOCUMENTS = 6;
/** Some calls keep their spinner at least this long (spec section 9). */
export const MIN_LOADING_MS = 1000;
/** Admin review: application emails, 3 per page (spec section 2). */
export const EMAILS_PAGE_SIZE = 3;
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
/** A drawdown request's invoice number: a reference, not prose (openapi maxLength; decision 552). */
export const INVOICE_NUMBER_MAX_LENGTH = 100;
/** A date typed as text (DD/MM/YYYY, spaces around it allowed): anything longer cannot be one (openapi maxLength). */
export const DATE_TEXT_MAX_LENGTH = 32;
/** Years (with an employer, married): 0 to this (openapi maximum). */
export const YEARS_MAX = 100;
/** A percentage: 0 to 100 (openapi maximum). */
export const PERCENT_MAX = 100;
