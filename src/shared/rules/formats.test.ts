import { describe, expect, it } from 'vitest';
import { dateGroup, formatApplicationId, formatDate, formatDateTime, formatMoney, shortName } from './formats';

describe('formatDate', () => {
  it('shows DD/MM/YYYY in the UK', () => {
    expect(formatDate('2024-03-05T10:00:00Z')).toBe('05/03/2024');
    expect(formatDate(new Date(Date.UTC(2023, 11, 31, 12)))).toBe('31/12/2023');
  });

  it('uses the UK day, also in summer time', () => {
    // 23:30 UTC on 30 June is 00:30 BST on 1 July.
    expect(formatDate('2024-06-30T23:30:00Z')).toBe('01/07/2024');
  });

  it('gives nothing for a missing or invalid date', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('formatDateTime', () => {
  it('shows DD/MM/YYYY HH:mm in 24 hours', () => {
    expect(formatDateTime('2024-01-15T14:07:00Z')).toBe('15/01/2024 14:07');
    expect(formatDateTime('2024-01-15T00:05:00Z')).toBe('15/01/2024 00:05');
  });
});

describe('formatMoney', () => {
  it('shows pounds with thousands separators and two decimals', () => {
    expect(formatMoney(1234.56)).toBe('£1,234.56');
    expect(formatMoney(0)).toBe('£0.00');
    expect(formatMoney(1_000_000)).toBe('£1,000,000.00');
    expect(formatMoney(12.5)).toBe('£12.50');
  });

  it('rounds to two decimals', () => {
    expect(formatMoney(1.005 + 0.0001)).toBe('£1.01');
    expect(formatMoney(2.344)).toBe('£2.34');
    expect(formatMoney(-0.001)).toBe('£0.00');
  });

  it('reads numeric strings and ignores anything else', () => {
    expect(formatMoney('2500')).toBe('£2,500.00');
    expect(formatMoney('£1,200.5')).toBe('£1,200.50');
    expect(formatMoney('abc')).toBe('');
    expect(formatMoney('')).toBe('');
    expect(formatMoney(null)).toBe('');
  });
});

describe('formatApplicationId', () => {
  it('pads the id to six digits after A-', () => {
    expect(formatApplicationId(123)).toBe('A-000123');
    expect(formatApplicationId(1)).toBe('A-000001');
    expect(formatApplicationId('42')).toBe('A-000042');
    expect(formatApplicationId(12345678)).toBe('A-12345678');
  });

  it('has nothing to show for an application not created yet', () => {
    expect(formatApplicationId('local-0f8e')).toBe('');
  });
});

describe('shortName', () => {
  it('is the first initial and the surname', () => {
    expect(shortName('John', 'Smith')).toBe('J. Smith');
    expect(shortName('  ann ', ' Lee ')).toBe('A. Lee');
  });

  it('copes with missing parts', () => {
    expect(shortName('', 'Smith')).toBe('Smith');
    expect(shortName('John', '')).toBe('J.');
    expect(shortName(null, undefined)).toBe('');
  });
});

describe('dateGroup', () => {
  const now = new Date('2024-01-15T12:00:00Z');

  it('puts today first', () => {
    expect(dateGroup('2024-01-15T00:10:00Z', now)).toBe('Today');
    expect(dateGroup('2024-01-15T23:50:00Z', now)).toBe('Today');
  });

  it('counts the six days before today as the last 7 days', () => {
    expect(dateGroup('2024-01-14T23:59:00Z', now)).toBe('Last 7 days');
    expect(dateGroup('2024-01-09T00:01:00Z', now)).toBe('Last 7 days');
  });

  it('puts anything older under Earlier', () => {
    expect(dateGroup('2024-01-08T23:59:00Z', now)).toBe('Earlier');
    expect(dateGroup('2020-01-01T00:00:00Z', now)).toBe('Earlier');
    expect(dateGroup('garbage', now)).toBe('Earlier');
  });

  it('treats a date in the future as today', () => {
    expect(dateGroup('2024-01-20T00:00:00Z', now)).toBe('Today');
  });

  it('uses UK calendar days', () => {
    const summerNow = new Date('2024-07-01T08:00:00Z');
    // 23:30 UTC on 30 June is already 1 July in London.
    expect(dateGroup('2024-06-30T23:30:00Z', summerNow)).toBe('Today');
  });
});
