import { describe, expect, it } from 'vitest';
import { fieldLabel, independentAdviceText, labelledFields, valueLabel } from './labels';
import { journeySteps } from './steps';

describe('fieldLabel', () => {
  it('asks the lawyer about your client and the client about you', () => {
    expect(fieldLabel('personal', 'dependants', 'lawyer')).toBe('Has your client got dependants?');
    expect(fieldLabel('personal', 'dependants', 'customer')).toBe('Have you got dependants?');
    expect(fieldLabel('personal', 'firstName', 'customer')).toBe('First name');
  });
  it('ignores list indexes in dotted paths', () => {
    expect(fieldLabel('asset', 'assets.3.type', 'lawyer')).toBe('Type of asset');
    expect(fieldLabel('personal', 'addressHistory.0.date', 'customer')).toBe('Moved in (month and year)');
  });
  it('labels every field of every step', () => {
    for (const step of journeySteps)
      for (const field of labelledFields(step)) {
        expect(fieldLabel(step, field, 'lawyer')).not.toBe(field);
        expect(fieldLabel(step, field, 'customer')).not.toMatch(/your client/i);
      }
  });
  it('states the independent advice fee', () => {
    expect(independentAdviceText('lawyer')).toContain('£250 plus VAT');
  });
});

describe('valueLabel', () => {
  it('prints saved answers', () => {
    expect(valueLabel('metClient', false)).toBe('No');
    expect(valueLabel('status', 'notEmployedSickness')).toBe('Not employed due to sickness or disability');
    expect(valueLabel('assets.0.type', 'eisureAndHobby')).toBe('Leisure and hobby');
    expect(valueLabel('feeEstimate', 1234.5)).toBe('£1,234.50');
    expect(valueLabel('clientInterest', 50)).toBe('50%');
    expect(valueLabel('addressHistory.0.date', '2021-03-01')).toBe('March 2021');
    expect(valueLabel('dateToKnowMore', '2025-09-01')).toBe('01/09/2025');
    expect(valueLabel('postcode', 'sw1a1aa')).toBe('SW1A 1AA');
    expect(valueLabel('birthMonth', 2)).toBe('February');
    expect(valueLabel('caseRef', undefined)).toBe('');
  });
});
