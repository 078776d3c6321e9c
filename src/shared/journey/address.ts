import { isoDay, todayDay } from '../rules/calendar-dates';
import { ADDRESS_HISTORY_DAYS } from '../rules/limits';

/** Address rules shared by the address-history form, the property question and validateStep. */

export { ADDRESS_HISTORY_DAYS };

/** The spec's lookup form: upper-cased, everything but letters and digits removed ('sw1a 1aa' → 'SW1A1AA'). */
export function normalizePostcode(raw: unknown): string {
  return typeof raw === 'string' ? raw.toUpperCase().replace(/[^A-Z0-9]/g, '') : '';
}

/** The printed form: the inward code (last three characters) after a space ('SW1A 1AA'). */
export function formatPostcode(raw: unknown): string {
  const code = normalizePostcode(raw);
  return code.length >= 5 && code.length <= 7 ? `${code.slice(0, -3)} ${code.slice(-3)}` : code;
}

/** Lower-case words only, so 'Flat 1, High St.' and 'flat 1 high st' are the same address. */
function words(raw: unknown): string {
  return typeof raw === 'string'
    ? raw
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim()
    : '';
}

interface AddressLike {
  type?: unknown;
  postcode?: unknown;
  address?: unknown;
  house?: unknown;
  street?: unknown;
  city?: unknown;
}

/**
 * The key that finds a repeated address: postcode + picked address for a lookup entry, postcode +
 * house + street for a manual one. '' when too little is filled to compare (then it never repeats).
 */
export function addressKey(entry: AddressLike): string {
  const postcode = normalizePostcode(entry.postcode);
  if (entry.type === 'manually') {
    const house = words(entry.house);
    const street = words(entry.street);
    return postcode && house && street ? `m|${postcode}|${house}|${street}` : '';
  }
  const address = words(entry.address);
  return postcode && address ? `p|${postcode}|${address}` : '';
}

// The calendar rules moved to src/shared/rules (the drawdown request's dates read them too).
export { isoDay, todayDay };

export interface AddressCoverage {
  /** Days from the earliest moved-in date to today (0 when no dates are given). */
  days: number;
  /** True when the history covers the 730 days the spec asks for. */
  covered: boolean;
}

/**
 * How far back the history reaches: from the earliest readable moved-in date to today. Exactly 730
 * days counts as covered. Entries without a readable date are ignored (validateStep reports them).
 */
export function addressCoverage(history: readonly { date?: unknown }[] | unknown, today: Date): AddressCoverage {
  const dates = Array.isArray(history)
    ? history.map((entry: unknown) => (entry && typeof entry === 'object' ? isoDay((entry as { date?: unknown }).date) : null))
    : [];
  const known = dates.filter((day): day is number => day !== null);
  if (known.length === 0) return { days: 0, covered: false };
  const days = todayDay(today) - Math.min(...known);
  return { days, covered: days >= ADDRESS_HISTORY_DAYS };
}

/**
 * The latest moved-in day the rules allow for the entry at `index` of a history listed latest
 * first: not after today (`futureDate`), nor after the moved-in date of the nearest entry listed
 * before it that has one (`dateOrder`, spec section 5). The rule and the form's month and year
 * choices both read it, so the form never offers a date the rule refuses.
 */
export function latestMovedInDay(history: readonly { date?: unknown }[], index: number, today: Date): number {
  const now = todayDay(today);
  for (let i = index - 1; i >= 0; i -= 1) {
    const day = isoDay(history[i]?.date);
    if (day !== null) return Math.min(now, day);
  }
  return now;
}

/** The calendar month of a day number (isoDay, todayDay). */
export function monthOfDay(day: number): { year: number; month: number } {
  const date = new Date(day * 86_400_000);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
}

/** The moved-in date of a month and year: the first of the month ('2021-03-01'). */
export function movedInDate(year: number, month: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`;
}

/**
 * An address as printed lines (the summary, the staff review, the PDF, the solicitor picker): a typed
 * address as 'house street', town, postcode; a looked-up address as its line split at the commas,
 * then the town and postcode when the line does not already hold them. The postcode is printed
 * normalised ('sw1a1aa' → 'SW1A 1AA'); a part already said is not said twice (decision 333).
 */
export function addressLines(entry: AddressLike): string[] {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : '');
  const typed = [text(entry.house), text(entry.street)].filter(Boolean).join(' ');
  const looked = text(entry.address)
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const first = entry.type === 'manually' || looked.length === 0 ? (typed ? [typed] : []) : looked;
  const lines = [...first];
  const said = (part: string) => lines.some((line) => words(line).includes(words(part)));
  const city = text(entry.city);
  if (city && !said(city)) lines.push(city);
  const postcode = formatPostcode(entry.postcode);
  if (postcode) {
    // A looked-up line may hold the postcode on its own, as typed: printed once, normalised.
    const kept = lines.filter((line) => normalizePostcode(line) !== normalizePostcode(postcode));
    return [...kept, postcode];
  }
  return lines;
}
