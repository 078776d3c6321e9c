/**
 * The one formatting module: money as £1,234.56, dates as DD/MM/YYYY. Used by the screens and by
 * the server's PDF, so both print values the same way.
 * Dates are shown in the UK's time zone: a date is the day the person in the UK saw it happen.
 */

export const DISPLAY_TIME_ZONE = 'Europe/London';

type DateInput = Date | string | number;

function toDate(value: DateInput): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * One formatter per time zone, made once: building an Intl.DateTimeFormat costs about a
 * millisecond (more on a slow phone), and a list formats several dates per row (decision 364).
 */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    dateTimeFormats.set(timeZone, format);
  }
  return format;
}

/** Year, month, day, hour and minute of an instant, as seen in the display time zone. */
function partsOf(date: Date, timeZone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute', string> {
  const parts = dateTimeFormat(timeZone).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? '';
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute') };
}

/** DD/MM/YYYY (spec: dates are displayed DD/MM/YYYY); '' for a missing or invalid date. */
export function formatDate(value: DateInput | null | undefined, timeZone = DISPLAY_TIME_ZONE): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  if (!date) return '';
  const { day, month, year } = partsOf(date, timeZone);
  return `${day}/${month}/${year}`;
}

/** DD/MM/YYYY HH:mm (24-hour): when a saved copy was taken. */
export function formatDateTime(value: DateInput | null | undefined, timeZone = DISPLAY_TIME_ZONE): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  if (!date) return '';
  const { day, month, year, hour, minute } = partsOf(date, timeZone);
  return `${day}/${month}/${year} ${hour}:${minute}`;
}

const money = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * £1,234.56: pounds rounded to 2 decimals with thousands separators (spec section 9). Accepts a
 * number or a numeric string (form values); '' for anything that is not a number.
 */
export function formatMoney(pounds: number | string | null | undefined): string {
  if (pounds === null || pounds === undefined || pounds === '') return '';
  const value = typeof pounds === 'number' ? pounds : Number(String(pounds).replace(/[£,\s]/g, ''));
  if (!Number.isFinite(value)) return '';
  // Avoid '-£0.00' for tiny negatives that round to zero.
  const rounded = Math.round(value * 100) / 100;
  return money.format(Object.is(rounded, -0) ? 0 : rounded);
}

/** Digits of the formatted application id (docs/decisions.md: 'A-000123'). */
const APPLICATION_ID_DIGITS = 6;

/**
 * The spec's "formatted id" of an application: 'A-' and the id padded to six digits ('A-000123').
 * Longer ids keep all their digits. A device-local id (not created yet) has no number to show.
 */
export function formatApplicationId(id: number | string): string {
  if (typeof id === 'string' && !/^\d+$/.test(id)) return '';
  return `A-${String(id).padStart(APPLICATION_ID_DIGITS, '0')}`;
}

/** The spec's displayed name: first initial plus surname ('J. Smith'). */
export function shortName(name: string | null | undefined, surname: string | null | undefined): string {
  const first = (name ?? '').trim();
  const last = (surname ?? '').trim();
  const initial = first ? `${Array.from(first)[0]!.toUpperCase()}.` : '';
  return [initial, last].filter(Boolean).join(' ');
}

export type DateGroup = 'Today' | 'Last 7 days' | 'Earlier';
export const dateGroups: readonly DateGroup[] = ['Today', 'Last 7 days', 'Earlier'];

/** Days since 1970 of the calendar day the instant falls on, in the display time zone. */
function dayNumber(date: Date, timeZone: string): number {
  const { year, month, day } = partsOf(date, timeZone);
  return Math.floor(Date.UTC(Number(year), Number(month) - 1, Number(day)) / 86_400_000);
}

/**
 * The list's groups (spec: Today, Last 7 days, Earlier), by calendar day in the display time zone:
 * today; the six days before it (today and those six are the last seven days); everything older.
 * A date in the future (a clock ahead) counts as today.
 */
export function dateGroup(value: DateInput, now: Date = new Date(), timeZone = DISPLAY_TIME_ZONE): DateGroup {
  const date = toDate(value);
  if (!date) return 'Earlier';
  const age = dayNumber(now, timeZone) - dayNumber(date, timeZone);
  if (age <= 0) return 'Today';
  if (age < 7) return 'Last 7 days';
  return 'Earlier';
}
