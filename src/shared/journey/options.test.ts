import { describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '../api/schema';
import {
  addressEntryTypes,
  assetTypes,
  birthYears,
  codesOf,
  completionBands,
  genders,
  type CodeOf,
  days,
  dependantCounts,
  disputeLevels,
  employmentStatuses,
  isNonEmployed,
  months,
  nationalities,
  optionLabel,
  titles,
  splitDateOptions,
} from './options';

type Schemas = components['schemas'];

describe('option lists (spec section 3)', () => {
  it('has the spec’s titles, days, months and dependant counts', () => {
    expect(titles.map((t) => t.value)).toEqual(['Mr', 'Mrs', 'Miss', 'Ms']);
    expect(days).toHaveLength(31);
    expect(months[0]).toEqual({ value: 1, label: '01 - January' });
    expect(months[11]).toEqual({ value: 12, label: '12 - December' });
    expect(dependantCounts.map((d) => d.value)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });
  it('lists 88 birth years, newest first, ending 12 years before this year', () => {
    const years = birthYears(new Date('2025-06-15'));
    expect(years).toHaveLength(88);
    expect(years[0]!.value).toBe(2013);
    expect(years[87]!.value).toBe(1926);
  });
  it('groups the non-employed statuses', () => {
    expect(employmentStatuses.map((s) => s.label)).toEqual([
      'Employed full time',
      'Employed part time',
      'Unemployed',
      'Not employed due to sickness or disability',
      'Retired',
      'Homemaker',
    ]);
    expect(isNonEmployed('retired')).toBe(true);
    expect(isNonEmployed('employedPartTime')).toBe(false);
    expect(isNonEmployed(undefined)).toBe(false);
  });
  it('puts British first in a list without repeats', () => {
    expect(nationalities[0]!.value).toBe('British');
    expect(new Set(nationalities.map((n) => n.value)).size).toBe(nationalities.length);
    expect(nationalities.length).toBeGreaterThan(190);
  });
  it('labels dispute levels, completion bands and asset types', () => {
    expect(disputeLevels.map((d) => d.label)).toEqual([
      'Highly contentious',
      'Contentious',
      'Neutral',
      'Cooperative',
      'Amicable',
    ]);
    expect(completionBands.map((c) => c.label)).toEqual(['Greater than 70%', 'Less than 70%']);
    expect(optionLabel(assetTypes, 'eisureAndHobby')).toBe('Leisure and hobby');
    expect(optionLabel(assetTypes, 'cashSums')).toBe('Cash sums over £5,000');
    expect(assetTypes).toHaveLength(10);
    expect(optionLabel(assetTypes, 'unknownOld')).toBe('unknownOld');
  });

  it('lists every code of the contract, so the picklists built from the lists refuse nothing valid', () => {
    expectTypeOf<CodeOf<typeof titles>>().toEqualTypeOf<Schemas['Title']>();
    expectTypeOf<CodeOf<typeof genders>>().toEqualTypeOf<Schemas['Gender']>();
    expectTypeOf<CodeOf<typeof employmentStatuses>>().toEqualTypeOf<Schemas['EmploymentStatus']>();
    expectTypeOf<CodeOf<typeof disputeLevels>>().toEqualTypeOf<Schemas['DisputeLevel']>();
    expectTypeOf<CodeOf<typeof completionBands>>().toEqualTypeOf<Schemas['Completion']>();
    expectTypeOf<CodeOf<typeof assetTypes>>().toEqualTypeOf<Schemas['AssetType']>();
    expectTypeOf<CodeOf<typeof addressEntryTypes>>().toEqualTypeOf<Schemas['AddressEntryType']>();
    expect(codesOf(completionBands)).toEqual(['greater', 'less']);
  });
});

describe('splitDateOptions', () => {
  const lists = { days, months, years: [2024, 2023].map((y) => ({ value: y, label: String(y) })) };
  const disabledOf = (list: readonly { value: number; disabled?: boolean }[]) =>
    list.filter((option) => option.disabled).map((option) => option.value);

  it('offers every part while nothing else is chosen', () => {
    const options = splitDateOptions({ day: '', month: '', year: '' }, lists);
    expect([disabledOf(options.days), disabledOf(options.months), disabledOf(options.years)]).toEqual([[], [], []]);
  });

  it('never offers a date that does not exist', () => {
    expect(disabledOf(splitDateOptions({ day: '', month: '2', year: '' }, lists).days)).toEqual([30, 31]);
    expect(disabledOf(splitDateOptions({ day: '', month: '2', year: '2023' }, lists).days)).toEqual([29, 30, 31]);
    expect(disabledOf(splitDateOptions({ day: '31', month: '', year: '' }, lists).months)).toEqual([2, 4, 6, 9, 11]);
    expect(disabledOf(splitDateOptions({ day: '29', month: '2', year: '' }, lists).years)).toEqual([2023]);
  });
});
