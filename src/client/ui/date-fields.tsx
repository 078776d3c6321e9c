import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import * as Popover from 'radix-ui/popover';
import { months as monthOptions } from '../../shared/journey/options';
import { formatDate } from '../../shared/rules/formats';
import { monthNames } from '../../shared/rules/months';
import type { ChoiceOption } from './choice-fields';
import { ErrorSlot, FieldHint, fieldClass, leftGroup, useFieldIds } from './field-parts';
import './button.css';
import './date-fields.css';

/* ── Month and year (moved in) ─────────────────────────────────────────────────────────────── */

export interface MonthYear {
  /** '1'..'12', or '' while not chosen. */
  month: string;
  /** '2021', or '' while not chosen. */
  year: string;
}

interface MonthYearFieldProps {
  label: string;
  value: MonthYear;
  onValueChange: (value: MonthYear) => void;
  /** The years to offer, newest first. */
  years: readonly ChoiceOption[];
  /**
   * The latest month and year the rule allows: later years are not offered, and a month or a year
   * that would make a later date with the other part already chosen is offered disabled.
   */
  latest?: { year: number; month: number };
  /** Focus left both selects. */
  onBlur?: () => void;
  error?: string | null;
  hint?: string;
  disabled?: boolean;
  id?: string;
  className?: string;
}

/**
 * A month and a year (the date moved in): two native selects under one question, one message for
 * both. Each select is named by the question and its own word ('Moved in Month').
 */
export function MonthYearField({
  label,
  value,
  onValueChange,
  years,
  latest,
  onBlur,
  error,
  hint,
  disabled,
  id,
  className,
}: MonthYearFieldProps) {
  const ids = useFieldIds(id, hint, error);
  const chosenYear = Number(value.year);
  const chosenMonth = Number(value.month);
  const monthAllowed = (month: number) => !latest || !value.year || chosenYear < latest.year || month <= latest.month;
  const yearAllowed = (year: number) =>
    !latest || year < latest.year || (year === latest.year && (!value.month || chosenMonth <= latest.month));
  // A later year is not offered at all, unless it is the value already chosen (shown, disabled).
  const offeredYears = latest
    ? years.filter((option) => Number(option.value) <= latest.year || String(option.value) === value.year)
    : years;
  const invalid = Boolean(error);
  const handleBlur = (event: FocusEvent<HTMLFieldSetElement>) => {
    if (onBlur && leftGroup(event)) onBlur();
  };
  return (
    <fieldset className={fieldClass(invalid, className, 'field--group field--parts')} onBlur={handleBlur}>
      <legend className="field__label" id={ids.labelId}>
        {label}
      </legend>
      <div className="field__parts">
        <div className="field__part">
          <label className="field__part-label" id={`${ids.controlId}-month-label`} htmlFor={`${ids.controlId}-month`}>
            Month
          </label>
          <select
            id={`${ids.controlId}-month`}
            className="field__input field__select"
            value={value.month}
            disabled={disabled}
            aria-labelledby={`${ids.labelId} ${ids.controlId}-month-label`}
            aria-invalid={invalid || undefined}
            aria-describedby={ids.describers}
            onChange={(event) => onValueChange({ ...value, month: event.target.value })}
          >
            <option value="">Month</option>
            {monthOptions.map((option) => (
              <option key={option.value} value={String(option.value)} disabled={!monthAllowed(option.value)}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field__part">
          <label className="field__part-label" id={`${ids.controlId}-year-label`} htmlFor={`${ids.controlId}-year`}>
            Year
          </label>
          <select
            id={`${ids.controlId}-year`}
            className="field__input field__select"
            value={value.year}
            disabled={disabled}
            aria-labelledby={`${ids.labelId} ${ids.controlId}-year-label`}
            aria-invalid={invalid || undefined}
            aria-describedby={ids.describers}
            onChange={(event) => onValueChange({ ...value, year: event.target.value })}
          >
            <option value="">Year</option>
            {offeredYears.map((option) => (
              <option key={String(option.value)} value={String(option.value)} disabled={!yearAllowed(Number(option.value))}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <FieldHint id={ids.hintId} hint={hint} />
      <ErrorSlot id={ids.errorId} error={error} />
    </fieldset>
  );
}

/* ── Calendar arithmetic on 'YYYY-MM-DD' strings (no time zones: a date is a calendar day) ──── */

interface Ymd {
  y: number;
  m: number; // 1..12
  d: number;
}

export function parseIsoDate(value: string | undefined | null): Ymd | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  if (!match) return null;
  const ymd = { y: Number(match[1]), m: Number(match[2]), d: Number(match[3]) };
  const check = new Date(Date.UTC(ymd.y, ymd.m - 1, ymd.d));
  return check.getUTCMonth() === ymd.m - 1 && check.getUTCDate() === ymd.d ? ymd : null;
}

function toIsoDate({ y, m, d }: Ymd): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function fromUtc(date: Date): Ymd {
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() };
}

function addDays(ymd: Ymd, days: number): Ymd {
  return fromUtc(new Date(Date.UTC(ymd.y, ymd.m - 1, ymd.d + days)));
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The same day some months later, or the month's last day when it is shorter (31 Jan + 1 → 29 Feb). */
function addMonths(ymd: Ymd, count: number): Ymd {
  const index = ymd.y * 12 + (ymd.m - 1) + count;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return { y, m, d: Math.min(ymd.d, daysInMonth(y, m)) };
}

/** Monday 0 … Sunday 6. */
function weekdayOf(ymd: Ymd): number {
  return (new Date(Date.UTC(ymd.y, ymd.m - 1, ymd.d)).getUTCDay() + 6) % 7;
}

function localToday(today: Date): Ymd {
  return { y: today.getFullYear(), m: today.getMonth() + 1, d: today.getDate() };
}

/** Six weeks of seven days: room for any month, whatever its first weekday. */
const CALENDAR_CELLS = 42;

const weekdays = [
  ['Mo', 'Monday'],
  ['Tu', 'Tuesday'],
  ['We', 'Wednesday'],
  ['Th', 'Thursday'],
  ['Fr', 'Friday'],
  ['Sa', 'Saturday'],
  ['Su', 'Sunday'],
] as const;

/* ── Date picker ───────────────────────────────────────────────────────────────────────────── */

interface DatePickerProps {
  label: string;
  /** 'YYYY-MM-DD', or '' when none is chosen. In month mode the day is always 01. */
  value: string;
  onValueChange: (value: string) => void;
  /** 'day' picks a day (the month view helps to move far); 'month' picks a month only. */
  mode?: 'day' | 'month';
  /** Earliest and latest choosable dates ('YYYY-MM-DD'); months outside them are disabled too. */
  min?: string;
  max?: string;
  /** Weekdays that cannot be chosen: 0 Monday … 6 Sunday. */
  disabledWeekdays?: readonly number[];
  /** Further days that cannot be chosen. */
  isDateDisabled?: (isoDate: string) => boolean;
  /** The picker was left (closed, or its button left while closed). */
  onBlur?: () => void;
  error?: string | null;
  hint?: string;
  disabled?: boolean;
  placeholder?: string;
  id?: string;
  className?: string;
  /** Today, for the calendar's first month (tests pass a fixed day). */
  today?: Date;
}

type View = 'day' | 'month';

/** About the calendar's height with its header and 'Close' (six weeks of 44 px rows). */
const CALENDAR_HEIGHT_PX = 460;

/**
 * A field low on a phone's screen has room for the calendar neither below nor above it: the page
 * is scrolled first so the calendar opens below the field, inside the screen (decision 336).
 */
function makeRoomBelow(trigger: HTMLElement | null): void {
  if (!trigger || typeof window.scrollBy !== 'function') return;
  const rect = trigger.getBoundingClientRect();
  const below = window.innerHeight - rect.bottom;
  if (below >= CALENDAR_HEIGHT_PX || rect.top >= CALENDAR_HEIGHT_PX) return;
  window.scrollBy({ top: Math.min(rect.top - 8, CALENDAR_HEIGHT_PX - below), behavior: 'instant' });
}

/**
 * A date chosen on a calendar (Radix Popover). Day view: a grid with the weekday header Mo to Su;
 * arrows move by day and week, Home/End to the week's ends, Page Up/Down by month (with Shift by
 * year), Enter or Space chooses, Escape closes and returns focus to the button. The heading button
 * switches to the month-only view (arrows move by month, Page Up/Down by year). Dates outside
 * min/max, disabled weekdays and disabled dates cannot be chosen.
 */
export function DatePicker({
  label,
  value,
  onValueChange,
  mode = 'day',
  min,
  max,
  disabledWeekdays = [],
  isDateDisabled,
  onBlur,
  error,
  hint,
  disabled,
  placeholder = 'Choose a date',
  id,
  className,
  today = new Date(),
}: DatePickerProps) {
  const ids = useFieldIds(id, hint, error);
  const invalid = Boolean(error);
  const [open, setOpen] = useState(false);
  const [view, setView] = useState<View>(mode);
  const selected = parseIsoDate(value);
  const minYmd = parseIsoDate(min);
  const maxYmd = parseIsoDate(max);
  const [focus, setFocus] = useState<Ymd>(() => selected ?? localToday(today));
  const moveFocus = useRef(false);
  const gridRef = useRef<HTMLDivElement>(null);

  const clamp = (ymd: Ymd): Ymd => {
    const iso = toIsoDate(ymd);
    if (minYmd && iso < toIsoDate(minYmd)) return minYmd;
    if (maxYmd && iso > toIsoDate(maxYmd)) return maxYmd;
    return ymd;
  };
  const dayDisabled = (ymd: Ymd): boolean => {
    const iso = toIsoDate(ymd);
    if (min && iso < min) return true;
    if (max && iso > max) return true;
    if (disabledWeekdays.includes(weekdayOf(ymd))) return true;
    return Boolean(isDateDisabled?.(iso));
  };
  const monthDisabled = (y: number, m: number): boolean => {
    const key = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
    if (min && key < min.slice(0, 7)) return true;
    if (max && key > max.slice(0, 7)) return true;
    return false;
  };

  // Focus follows the keyboard: after a move, the day (or month) now current gets the focus.
  useEffect(() => {
    if (!open || !moveFocus.current) return;
    const key = view === 'day' ? toIsoDate(focus) : toIsoDate({ ...focus, d: 1 }).slice(0, 7);
    const target = gridRef.current?.querySelector<HTMLButtonElement>(`[data-key="${key}"]`);
    // The popover's content mounts a render after `open`: wait for it.
    if (!target) return;
    moveFocus.current = false;
    target.focus();
  });

  const openChange = (next: boolean) => {
    if (next) {
      setFocus(clamp(selected ?? localToday(today)));
      setView(mode);
      moveFocus.current = true;
      makeRoomBelow(document.getElementById(ids.controlId));
    }
    setOpen(next);
    if (!next) onBlur?.();
  };

  const move = (next: Ymd) => {
    setFocus(clamp(next));
    moveFocus.current = true;
  };

  const choose = (ymd: Ymd) => {
    onValueChange(toIsoDate(ymd));
    openChange(false);
  };

  const chooseMonth = (y: number, m: number) => {
    if (monthDisabled(y, m)) return;
    if (mode === 'month') {
      choose({ y, m, d: 1 });
      return;
    }
    setView('day');
    move({ y, m, d: Math.min(focus.d, daysInMonth(y, m)) });
  };

  const onDayKey = (event: KeyboardEvent) => {
    const moves: Record<string, () => Ymd> = {
      ArrowLeft: () => addDays(focus, -1),
      ArrowRight: () => addDays(focus, 1),
      ArrowUp: () => addDays(focus, -7),
      ArrowDown: () => addDays(focus, 7),
      Home: () => addDays(focus, -weekdayOf(focus)),
      End: () => addDays(focus, 6 - weekdayOf(focus)),
      PageUp: () => addMonths(focus, event.shiftKey ? -12 : -1),
      PageDown: () => addMonths(focus, event.shiftKey ? 12 : 1),
    };
    const to = moves[event.key];
    if (!to) return;
    event.preventDefault();
    move(to());
  };

  const onMonthKey = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -3, ArrowDown: 3, PageUp: -12, PageDown: 12 };
    const by = moves[event.key];
    if (by === undefined) return;
    event.preventDefault();
    const next = addMonths({ ...focus, d: 1 }, by);
    move({ ...next, d: Math.min(focus.d, daysInMonth(next.y, next.m)) });
  };

  const shown =
    mode === 'month' && selected ? `${monthNames[selected.m - 1]} ${selected.y}` : formatDate(value ? `${value}T12:00:00Z` : '');
  const title = view === 'day' ? `${monthNames[focus.m - 1]} ${focus.y}` : String(focus.y);
  const step = (by: number) => {
    const next = addMonths(focus, view === 'day' ? by : by * 12);
    setFocus(next);
  };

  // The weeks of the month shown, Monday first; null fills the days of other months. Always six
  // rows (the most a month spans): the calendar keeps its height from month to month, so when it
  // opens above its field the heading and its arrows stay under the finger.
  const weeks: (Ymd | null)[][] = [];
  if (view === 'day') {
    const first = { y: focus.y, m: focus.m, d: 1 };
    const cells: (Ymd | null)[] = Array.from({ length: weekdayOf(first) }, () => null);
    for (let d = 1; d <= daysInMonth(focus.y, focus.m); d += 1) cells.push({ y: focus.y, m: focus.m, d });
    while (cells.length < CALENDAR_CELLS) cells.push(null);
    for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  }
  const todayIso = toIsoDate(localToday(today));

  return (
    <div className={fieldClass(invalid, className)}>
      <span className="field__label" id={ids.labelId}>
        {label}
      </span>
      <Popover.Root open={open} onOpenChange={openChange}>
        <Popover.Trigger asChild>
          <button
            type="button"
            id={ids.controlId}
            className="field__input date-picker__trigger"
            disabled={disabled}
            aria-labelledby={`${ids.labelId} ${ids.controlId}`}
            aria-describedby={ids.describers}
            aria-invalid={invalid || undefined}
            onBlur={() => {
              if (!open) onBlur?.();
            }}
          >
            <span className={shown ? 'date-picker__value' : 'date-picker__placeholder'}>{shown || placeholder}</span>
            <svg className="date-picker__icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
              <rect x="2.5" y="4" width="15" height="13" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
              <path d="M2.5 8h15M6.5 2v4M13.5 2v4" stroke="currentColor" strokeWidth="1.5" />
            </svg>
          </button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            className="date-picker"
            aria-label={label}
            align="start"
            sideOffset={4}
            collisionPadding={8}
            onOpenAutoFocus={(event) => {
              // The current day takes the focus, not the first button.
              event.preventDefault();
              gridRef.current?.querySelector<HTMLButtonElement>('[data-key][tabindex="0"]')?.focus();
              moveFocus.current = false;
            }}
          >
            <div className="date-picker__header">
              <button
                type="button"
                className="date-picker__nav"
                aria-label={view === 'day' ? 'Previous month' : 'Previous year'}
                onClick={() => step(-1)}
              >
                ‹
              </button>
              <button
                type="button"
                className="date-picker__title"
                aria-live="polite"
                aria-label={view === 'day' ? `${title}, choose a month` : title}
                onClick={() => {
                  if (view === 'day') {
                    setView('month');
                    moveFocus.current = true;
                  }
                }}
                disabled={view === 'month'}
              >
                {title}
              </button>
              <button
                type="button"
                className="date-picker__nav"
                aria-label={view === 'day' ? 'Next month' : 'Next year'}
                onClick={() => step(1)}
              >
                ›
              </button>
            </div>
            <div ref={gridRef} className="date-picker__body">
              {view === 'day' ? (
                <table className="date-picker__grid" role="grid" aria-label={title} onKeyDown={onDayKey}>
                  <thead>
                    <tr>
                      {weekdays.map(([short, long]) => (
                        <th key={short} scope="col" abbr={long}>
                          {short}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {weeks.map((week, row) => (
                      <tr key={row}>
                        {week.map((day, col) => {
                          if (!day) return <td key={col} role="gridcell" />;
                          const iso = toIsoDate(day);
                          const off = dayDisabled(day);
                          const isSelected = iso === value;
                          const isFocus = iso === toIsoDate(focus);
                          return (
                            <td key={col} role="gridcell" aria-selected={isSelected}>
                              <button
                                type="button"
                                data-key={iso}
                                className={[
                                  'date-picker__day',
                                  isSelected ? 'date-picker__day--selected' : '',
                                  iso === todayIso ? 'date-picker__day--today' : '',
                                ]
                                  .filter(Boolean)
                                  .join(' ')}
                                tabIndex={isFocus ? 0 : -1}
                                aria-label={`${day.d} ${monthNames[day.m - 1]} ${day.y}`}
                                aria-disabled={off || undefined}
                                aria-current={iso === todayIso ? 'date' : undefined}
                                onClick={() => {
                                  setFocus(day);
                                  if (!off) choose(day);
                                }}
                              >
                                {day.d}
                              </button>
                            </td>
                          );
                        })}
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : (
                <div className="date-picker__months" role="group" aria-label={title} onKeyDown={onMonthKey}>
                  {monthNames.map((name, index) => {
                    const m = index + 1;
                    const key = `${String(focus.y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
                    const off = monthDisabled(focus.y, m);
                    const isSelected = Boolean(selected && selected.y === focus.y && selected.m === m);
                    return (
                      <button
                        key={name}
                        type="button"
                        data-key={key}
                        className={['date-picker__month', isSelected ? 'date-picker__day--selected' : '']
                          .filter(Boolean)
                          .join(' ')}
                        tabIndex={m === focus.m ? 0 : -1}
                        aria-label={`${name} ${focus.y}`}
                        aria-pressed={isSelected}
                        aria-disabled={off || undefined}
                        onClick={() => chooseMonth(focus.y, m)}
                      >
                        {name.slice(0, 3)}
                      </button>
                    );
                  })}
                </div>
              )}
            </div>
            <Popover.Close className="button button--link date-picker__close">Close</Popover.Close>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <FieldHint id={ids.hintId} hint={hint} />
      <ErrorSlot id={ids.errorId} error={error} />
    </div>
  );
}
