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

  it('shows the summary step’s rows: the birth date once, each address as lines, postcodes printed', () => {
    const rows = summaryRows('personal', journey.personal as Record<string, unknown>, 'lawyer');
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ['First name', 'Jane'],
      ['Last name', 'Smith'],
      ['Date of birth', '04/07/1980'],
      ['Current address', '5 Park Row\nLeeds\nLS1 4DY\nMoved in March 2019'],
      ['Previous address 1', '1 High Street\nYork\nYO1 7HH'],
      ['What is your client’s employment status?', 'Employed full time'],
    ]);
    expect(summaryRows('personal', undefined, 'lawyer')).toEqual([]);
  });

  it('names the solicitor and the live files from the lookups, never an id', () => {
    const asset = { submittedFormE: true, documents: [7, 9], assetValue: 1000 };
    const withNames = summaryRows('asset', asset, 'lawyer', lookups);
    // File 9 is not live (deleted): it is not listed.
    expect(withNames).toContainEqual({ field: 'documents', label: 'Form E documents (PDF)', value: 'form-e.pdf' });
    expect(summaryRows('asset', { ...asset, documents: [9] }, 'lawyer', lookups)).toContainEqual({
      field: 'documents',
      label: 'Form E documents (PDF)',
      value: 'None',
    });
    expect(summaryRows('independent', { solicitorId: 3 }, 'lawyer', lookups)[0]!.value).toBe('Greenway Legal Advice');
    expect(summaryRows('independent', { solicitorId: 3 }, 'lawyer')[0]!.value).toBe('A solicitor from the list');
    expect(displayValue('asset', 'documents', [7])).toBe('1 document');
    expect(displayValue('asset', 'documents', [7, 8])).toBe('2 documents');
    expect(displayValue('independent', 'solicitorId', 3)).toBe('A solicitor from the list');
  });

  it('prints a property address as lines, a typed postcode normalised, and no entry choice', () => {
    const rows = summaryRows(
      'asset',
      {
        submittedFormE: false,
        additionalProperty: true,
        addressType: 'manually',
        house: '2',
        street: 'Mill Lane',
        city: 'York',
        postcode: 'yo17hh',
      },
      'lawyer',
    );
    expect(rows).toEqual([
      { field: 'submittedFormE', label: 'Has a Form E been completed?', value: 'No' },
      { field: 'additionalProperty', label: 'Does your client own any other property?', value: 'Yes' },
      { field: 'address', label: 'Property address', value: '2 Mill Lane\nYork\nYO1 7HH' },
    ]);
  });

  it('gives every step of the summary a section, empty when nothing is answered', () => {
    const sections = summarySections(journey, ['personal', 'case'], 'customer');
    expect(sections.map((s) => [s.title, s.rows.length > 0])).toEqual([
      ['Personal Information', true],
      ['Case Information', false],
    ]);
  });

  it('prints the summary’s rows in the PDF: birth date, addresses, assets, the solicitor by name', () => {
    const [personal, asset, financial, independent] = printedSections(
      journey,
      ['personal', 'asset', 'financial', 'independent'],
      'lawyer',
      lookups,
    );
    expect(personal!.lines).toContainEqual(row('Date of birth', '04/07/1980'));
    expect(personal!.lines).toContainEqual(row('Current address', '5 Park Row\nLeeds\nLS1 4DY\nMoved in March 2019'));
    expect(personal!.lines).toContainEqual(row('Previous address 1', '1 High Street\nYork\nYO1 7HH'));
    expect(asset!.lines).toContainEqual(
      row('Asset 1', 'Leisure and hobby\nRealisable value: £1,200.00\nYour client’s interest in the asset (%): 50%'),
    );
    expect(asset!.lines).toContainEqual(row('Asset 2', 'A boat'));
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

  it('prints ids as names, and only the live files', () => {
    expect(printedValue('solicitorId', 3, lookups)).toBe('Greenway Legal Advice');
    expect(printedValue('solicitorId', 4, lookups)).toBe('A solicitor from the list');
    expect(printedValue('documents', [7, 9], lookups)).toBe('form-e.pdf');
    expect(printedValue('completion', 'greater', lookups)).toBe('Greater than 70%');
  });
});
