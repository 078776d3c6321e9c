/** The bounds of what a request may carry (lengths, pages, uploads) and how long links and sessions last: named once, used by both sides. */

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

/** Invitation links stay valid this long (not in the spec: docs/decisions.md). */
export const INVITATION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** Password reset links stay valid this long (not in the spec: docs/decisions.md). */
export const RESET_TTL_MS = 60 * 60 * 1000;

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

/** Admin review: application emails, 3 per page (spec section 2). */
export const EMAILS_PAGE_SIZE = 3;

/** A drawdown request's invoice number: a reference, not prose (openapi maxLength; decision 552). */
export const INVOICE_NUMBER_MAX_LENGTH = 100;

/** A date typed as text (DD/MM/YYYY, spaces around it allowed): anything longer cannot be one (openapi maxLength). */
export const DATE_TEXT_MAX_LENGTH = 32;

/** Years (with an employer, married): 0 to this (openapi maximum). */
export const YEARS_MAX = 100;

/** A percentage: 0 to 100 (openapi maximum). */
export const PERCENT_MAX = 100;
