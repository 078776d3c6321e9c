import { DISPLAY_TIME_ZONE } from './formats';

/**
 * Calendar dates as both sides read them: a day is counted in whole days since 1970-01-01, and
 * "today" is the UK's day, so the phone and the server (which runs in UTC) agree on it, as the
 * display formats do.
 */

const DAY_MS = 86_400_000;

/**
 * Days since 1970-01-01 of a year, month and day that exist together; null for 31 February (and
 * for the years 0–99, which Date.UTC reads as 1900–1999: no date here is that old).
 */
function dayOf(year: number, month: number, day: number): number | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 31 February over into March: a real date reads back the same.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.getTime() / DAY_MS;
}

/** A real calendar date written 'YYYY-MM-DD', as days since 1970-01-01; null otherwise. */
export function isoDay(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  return dayOf(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** Today's calendar date in the UK, as days since 1970-01-01. */
export function todayDay(today: Date): number {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: DISPLAY_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(today);
  return isoDay(parts) ?? Math.floor(today.getTime() / DAY_MS);
}

/**
 * A date as it is written in the UK and shown everywhere in the portal (spec: DD/MM/YYYY): day and
 * month of one or two digits, a four-digit year, separated by '/', spaces around allowed. Only
 * the writing is read here; whether the day exists is `ukDay`'s.
 */
export function ukDateParts(text: string): { day: number; month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(text);
  if (!match) return null;
  return { day: Number(match[1]), month: Number(match[2]), year: Number(match[3]) };
}

/** Days since 1970-01-01 of a DD/MM/YYYY date that exists; null otherwise. */
export function ukDay(text: string): number | null {
  const parts = ukDateParts(text);
  return parts ? dayOf(parts.year, parts.month, parts.day) : null;
}

/** A DD/MM/YYYY date in its written form: '1/3/2027' → '01/03/2027'. The text as given when it is not one. */
export function normalUkDate(text: string): string {
  const parts = ukDateParts(text);
  if (!parts) return text.trim();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(parts.day)}/${two(parts.month)}/${parts.year}`;
}

/** The UK day `days` from today, written DD/MM/YYYY (the seed's dates, the tests' dates). */
export function ukDateFromToday(days: number, today: Date = new Date()): string {
  const date = new Date((todayDay(today) + days) * DAY_MS);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCDate())}/${two(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
}
