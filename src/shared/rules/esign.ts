/** The signing page's one-time code (docs/decisions.md: 286): 6 digits, 10 minutes, 5 attempts. */
export const SIGNING_CODE_DIGITS = 6;
export const SIGNING_CODE_TTL_MINUTES = 10;
export const SIGNING_CODE_MAX_ATTEMPTS = 5;
/** Codes one signing link may ask for; then a new link is needed. */
export const SIGNING_CODES_PER_LINK = 5;
/**
 * Codes one envelope may ask for in a day, whatever the link: a signed-in person can always ask for
 * a new link, so this bounds the guesses at 10 × 5 a day against a million codes (decision 286).
 */
export const SIGNING_CODES_PER_DAY = 10;
export const SIGNING_CODE_DAY_MS = 24 * 60 * 60 * 1000;
