import { describe, expect, it } from 'vitest';
import { normalUkDate, ukDateFromToday, ukDay } from './calendar-dates';
import { drawdownDateCode } from './drawdown-dates';
import { fieldMessages } from './error-codes';

// 25 November 2026, midday in London.
const today = new Date('2026-11-25T12:00:00Z');

describe('a drawdown request date', () => {
  it('is a real date written DD/MM/YYYY, today or later', () => {
    expect(drawdownDateCode('25/11/2026', today)).toBeUndefined();
    expect(drawdownDateCode('14/03/2027', today)).toBeUndefined();
    expect(drawdownDateCode(' 1/3/2027 ', today)).toBeUndefined();
    expect(drawdownDateCode('29/02/2028', today)).toBeUndefined();
  });

  it('is refused when it is not written DD/MM/YYYY', () => {
    for (const text of ['next spring', '2027-03-14', '14.03.2027', '14/03/27', '14/03/20277', '14 March 2027', '1/3/2027x']) {
      expect(drawdownDateCode(text, today), text).toBe('dateFormat');
    }
  });

  it('is refused when the day is not in the calendar', () => {
    for (const text of ['31/02/2027', '29/02/2027', '31/04/2027', '00/01/2027', '12/13/2027', '01/00/2027']) {
      expect(drawdownDateCode(text, today), text).toBe('noSuchDate');
    }
  });

  it('is refused before today, today being the UK’s day', () => {
    expect(drawdownDateCode('24/11/2026', today)).toBe('pastDate');
    expect(drawdownDateCode('30/06/2020', today)).toBe('pastDate');
    // 23:30 UTC on 30 June is already 1 July in London (BST): 30/06 has passed there.
    const lateJune = new Date('2026-06-30T23:30:00Z');
    expect(drawdownDateCode('30/06/2026', lateJune)).toBe('pastDate');
    expect(drawdownDateCode('01/07/2026', lateJune)).toBeUndefined();
  });

  it('is required', () => {
    expect(drawdownDateCode('', today)).toBe('required');
    expect(drawdownDateCode('  ', today)).toBe('required');
    expect(drawdownDateCode(undefined, today)).toBe('required');
  });

  it('has words for every code, in the spec’s style', () => {
    expect(fieldMessages.dateFormat).toBe('Invalid date format - please check your entry');
    expect(fieldMessages.noSuchDate).toBe('This date does not exist - please check your entry');
    expect(fieldMessages.pastDate).toBe('This date cannot be in the past');
  });
});

describe('UK dates', () => {
  it('are stored in their written form and counted in days', () => {
    expect(normalUkDate(' 1/3/2027 ')).toBe('01/03/2027');
    expect(normalUkDate('next spring ')).toBe('next spring');
    expect(ukDay('02/01/1970')).toBe(1);
    expect(ukDay('31/02/2027')).toBeNull();
  });

  it('are counted from the UK’s today', () => {
    expect(ukDateFromToday(0, today)).toBe('25/11/2026');
    expect(ukDateFromToday(37, today)).toBe('01/01/2027');
    expect(ukDateFromToday(-1, new Date('2026-06-30T23:30:00Z'))).toBe('30/06/2026');
  });
});
