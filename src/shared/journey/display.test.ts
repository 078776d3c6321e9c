import { describe, expect, it } from 'vitest';
import {
  displayValue,
  journeyStepTitle,
  printedSections,
  printedValue,
  summaryRows,
  summarySections,
  type PrintedLine,
} from './display';
import type { Journey } from './steps';

const lookups = { solicitorNames: new Map([[3, 'Greenway Legal Advice']]), fileNames: new Map([[7, 'form-e.pdf']]) };

const journey = {
  personal: {
    firstName: 'Jane',
    lastName: 'Smith',
    birthDayDay: 4,
    birthMonth: 7,
    birthYear: 1980,
    status: 'employedFullTime',
    addressHistory: [
      { type: 'manually', house: '5', street: 'Park Row', city: 'Leeds', postcode: 'LS1 4DY', date: '2019-03-01' },
      { type: 'postcode', address: '1 High Street, York', postcode: 'YO1 7HH' },
    ],
  },
  asset: {
    submittedFormE: false,
    includeOtherAssets: true,
    assets: [
      { type: 'eisureAndHobby', valueOfRealisable: 1200, clientsInterest: 50 },
      { type: 'other', typeoOther: 'A boat' },
    ],
  },
  independent: { useOwnSolicitor: false, solicitorId: 3 },
} as unknown as Journey;

const row = (label: string, value: string): PrintedLine => ({ kind: 'row', label, value });

describe('journey display', () => {
  it('titles a step for who fills the form', () => {
    expect(journeyStepTitle('personal', 'lawyer')).toBe('Client details');
    expect(journeyStepTitle('personal', 'customer')).toBe('Personal Information');
    expect(journeyStepTitle('client', 'lawyer')).toBe('Client Confirmations');
  });

  it('shows the summary step’s rows: question labels, value labels, lists on one line, files counted', () => {
    const rows = summaryRows('personal', journey.personal as Record<string, unknown>, 'lawyer');
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ['First name', 'Jane'],
      ['Last name', 'Smith'],
      ['Day', '4'],
      ['Month', 'July'],
      ['Year', '1980'],
      [
        'Your client’s addresses over the last 2 years, latest first',
        '5, Park Row, Leeds, LS1 4DY, March 2019; 1 High Street, York, YO1 7HH',
      ],
      ['What is your client’s employment status?', 'Employed full time'],
    ]);
    expect(displayValue('asset', 'documents', [7])).toBe('1 document');
    expect(displayValue('asset', 'documents', [7, 8])).toBe('2 documents');
    expect(summaryRows('personal', undefined, 'lawyer')).toEqual([]);
  });

  it('gives every step of the summary a section, empty when nothing is answered', () => {
    const sections = summarySections(journey, ['personal', 'case'], 'customer');
    expect(sections.map((s) => [s.title, s.rows.length > 0])).toEqual([
      ['Personal Information', true],
      ['Case Information', false],
    ]);
  });

  it('prints the birth date once, each address and asset, and names the solicitor', () => {
    const [personal, asset, financial, independent] = printedSections(
      journey,
      ['personal', 'asset', 'financial', 'independent'],
      'lawyer',
      lookups,
    );
    expect(personal!.lines).toContainEqual(row('Date of birth', '04/07/1980'));
    expect(personal!.lines).toContainEqual(row('Address 1', '5 Park Row, Leeds, LS1 4DY'));
    expect(personal!.lines).toContainEqual(row('Moved in (month and year)', 'March 2019'));
    expect(personal!.lines).toContainEqual(row('Address 2', '1 High Street, York, YO1 7HH'));
    expect(asset!.lines).toContainEqual({ kind: 'subheading', text: 'Other assets' });
    expect(asset!.lines).toContainEqual(row('Type of asset (1)', 'Leisure and hobby'));
    expect(asset!.lines).toContainEqual(row('Realisable value', '£1,200.00'));
    expect(asset!.lines).toContainEqual(row('Type of asset (2)', 'A boat'));
    expect(financial).toMatchObject({ title: 'Financial details', answered: false, lines: [] });
    expect(independent!.lines).toContainEqual(
      row('Choose a solicitor to give your client independent advice', 'Greenway Legal Advice'),
    );
  });

  it('prints only the chosen fields, and leaves out steps with none', () => {
    const sections = printedSections(journey, ['personal', 'client'], 'lawyer', lookups, (step) =>
      step === 'personal' ? ['lastName'] : undefined,
    );
    expect(sections).toEqual([{ step: 'personal', title: 'Client details', answered: true, lines: [row('Last name', 'Smith')] }]);
  });

  it('prints ids as names, and says when a file has gone', () => {
    expect(printedValue('solicitorId', 3, lookups)).toBe('Greenway Legal Advice');
    expect(printedValue('solicitorId', 4, lookups)).toBe('Solicitor 4');
    expect(printedValue('documents', [7, 9], lookups)).toBe('form-e.pdf\nDocument 9 (removed)');
    expect(printedValue('completion', 'greater', lookups)).toBe('Greater than 70%');
  });
});
