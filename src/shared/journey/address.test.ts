import { describe, expect, it } from 'vitest';
import {
  addressCoverage,
  addressKey,
  addressLines,
  formatPostcode,
  isoDay,
  latestMovedInDay,
  monthOfDay,
  movedInDate,
  normalizePostcode,
  todayDay,
} from './address';

describe('postcodes', () => {
  it('normalises as the lookup does: upper case, letters and digits only', () => {
    expect(normalizePostcode(' sw1a-1aa ')).toBe('SW1A1AA');
    expect(normalizePostcode(42)).toBe('');
  });
  it('prints the inward code after a space', () => {
    expect(formatPostcode('sw1a1aa')).toBe('SW1A 1AA');
    expect(formatPostcode('m11ae')).toBe('M1 1AE');
    expect(formatPostcode('abc')).toBe('ABC');
  });
});

describe('addressKey', () => {
  it('matches the same address however it is written', () => {
    expect(addressKey({ type: 'postcode', postcode: 'sw1a 1aa', address: '10 Downing St., London' })).toBe(
      addressKey({ type: 'postcode', postcode: 'SW1A1AA', address: '10 downing st london' }),
    );
    expect(addressKey({ type: 'manually', postcode: 'M1 1AE', house: '5', street: 'High St', city: 'A' })).toBe(
      addressKey({ type: 'manually', postcode: 'm11ae', house: '5', street: 'high st', city: 'B' }),
    );
  });
  it('is empty when too little is known to compare', () => {
    expect(addressKey({ type: 'postcode', postcode: 'M1 1AE' })).toBe('');
    expect(addressKey({ type: 'manually', postcode: 'M1 1AE', house: '5' })).toBe('');
  });
});

describe('dates', () => {
  it('reads only real YYYY-MM-DD dates', () => {
    expect(isoDay('1970-01-02')).toBe(1);
    expect(isoDay('2023-02-29')).toBeNull();
    expect(isoDay('2024-02-29')).not.toBeNull();
    expect(isoDay('2024-2-1')).toBeNull();
    expect(isoDay(20240201)).toBeNull();
  });
  it('takes today as the UK calendar day', () => {
    // 23:30 UTC on 30 June is already 1 July in London (summer time).
    expect(todayDay(new Date('2025-06-30T23:30:00Z'))).toBe(isoDay('2025-07-01'));
    expect(todayDay(new Date('2025-12-31T23:30:00Z'))).toBe(isoDay('2025-12-31'));
  });
  it('writes a moved-in month as its first day', () => {
    expect(movedInDate(2021, 3)).toBe('2021-03-01');
  });
});

describe('addressCoverage', () => {
  const today = new Date('2025-06-15T12:00:00Z');
  it('counts days from the earliest moved-in date', () => {
    expect(addressCoverage([{ date: '2023-06-16' }], today)).toEqual({ days: 730, covered: true });
    expect(addressCoverage([{ date: '2023-06-17' }], today)).toEqual({ days: 729, covered: false });
    expect(addressCoverage([{ date: '2025-01-01' }, { date: '2020-01-01' }], today).covered).toBe(true);
  });
  it('is not covered without dates, and ignores unreadable entries', () => {
    expect(addressCoverage([], today)).toEqual({ days: 0, covered: false });
    expect(addressCoverage('x', today)).toEqual({ days: 0, covered: false });
    expect(addressCoverage([null, { date: 'x' }, { date: '2020-01-01' }], today).covered).toBe(true);
  });
});

describe('addressLines', () => {
  it('prints a typed address as lines with its postcode normalised', () => {
    expect(addressLines({ type: 'manually', house: '5', street: 'Park Row', city: 'Leeds', postcode: 'ls14dy' })).toEqual([
      '5 Park Row',
      'Leeds',
      'LS1 4DY',
    ]);
  });
  it('says a looked-up address once, even when its parts are also stored', () => {
    expect(
      addressLines({ address: '14 Greycoat Place', house: '14', street: 'Greycoat Place', city: 'London', postcode: 'SW1A 2AA' }),
    ).toEqual(['14 Greycoat Place', 'London', 'SW1A 2AA']);
    expect(addressLines({ type: 'postcode', address: '1 High Street, York, yo1 7hh', postcode: 'yo17hh' })).toEqual([
      '1 High Street',
      'York',
      'YO1 7HH',
    ]);
  });
});

describe('latestMovedInDay', () => {
  const today = new Date('2026-11-25T12:00:00Z');
  it('allows the current address up to this month, and an older one up to the newer one’s month', () => {
    const history = [{ date: '2023-03-01' }, { date: undefined }, { date: '2012-05-01' }];
    expect(monthOfDay(latestMovedInDay(history, 0, today))).toEqual({ year: 2026, month: 11 });
    expect(monthOfDay(latestMovedInDay(history, 1, today))).toEqual({ year: 2023, month: 3 });
    // The nearest entry before it with a date counts: the undated one is skipped.
    expect(monthOfDay(latestMovedInDay(history, 2, today))).toEqual({ year: 2023, month: 3 });
  });
  it('is never after today, whatever the newer entry says', () => {
    expect(latestMovedInDay([{ date: '2030-01-01' }, {}], 1, today)).toBe(todayDay(today));
  });
});
