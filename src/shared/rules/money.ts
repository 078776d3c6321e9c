/**
 * Money: pounds with pence on the wire and on screen (a JSON number, £1,234.56), integer pence in
 * the database and in every sum, so that 0.1 + 0.2 is never 0.30000000000000004. Both sides use
 * these rules: the form checks what it can before sending, the server checks again (under the
 * loan's row lock where credit is involved).
 */

/** Our own bound on any amount: £1,000,000,000 (well inside the integers a number holds exactly). */
export const MONEY_MAX_PENCE = 100_000_000_000;

/** The same bound in pounds, as the wire carries amounts (openapi `maximum` of every amount a request carries). */
export const MONEY_MAX_POUNDS = MONEY_MAX_PENCE / 100;

/**
 * Pounds (a number, or a decimal string as typed) to integer pence, exactly: the shortest decimal
 * that reads back as the number ('2500.1', '0.30000000000000004') is read digit by digit, never
 * multiplied as a float. Undefined for anything that is not a finite amount with at most two
 * decimals (or is beyond MONEY_MAX_PENCE either way).
 */
export function toPence(pounds: number | string): number | undefined {
  if (typeof pounds === 'number' && !Number.isFinite(pounds)) return undefined;
  const text = typeof pounds === 'number' ? String(pounds) : pounds.trim();
  const match = /^(-?)(\d+)(?:\.(\d{0,2}))?$/.exec(text) ?? /^(-?)()\.(\d{1,2})$/.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  const pence = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(pence) || pence > MONEY_MAX_PENCE) return undefined;
  return sign && pence !== 0 ? -pence : pence;
}

/** Integer pence to pounds for the wire (2500.1 for 250010): one division, no sums in floating point. */
export function toPounds(pence: number): number {
  return pence / 100;
}

/**
 * Pence of a figure the server sent (always whole pence divided by 100, so rounding recovers them
 * exactly); for what a person typed, use toPence, which refuses a third decimal instead.
 */
export function wirePence(pounds: number): number {
  return Math.round(pounds * 100);
}

/** One figure the server sent less another, in pounds, subtracted in pence (credit left, drawdowns pending). */
export function poundsLess(from: number, less: number): number {
  return toPounds(wirePence(from) - wirePence(less));
}
