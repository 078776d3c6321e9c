import { describe, expect, it } from 'vitest';
import { validPersonal, validSteps } from '../../../tests/fixtures/journeys';
import { audienceOf, wizardAudience } from './audience';
import type { Journey } from './steps';
import { stepsToSubmit, submitBlockers } from './submit';

const today = new Date();
const complete = { personal: validPersonal('nina@example.com'), ...validSteps } as unknown as Journey;

describe('who fills which form', () => {
  it('gives the wizard to the lawyer and the client only, and the lawyer wording to everyone else', () => {
    expect(wizardAudience('lawyer')).toBe('lawyer');
    expect(wizardAudience('customer')).toBe('customer');
    expect(wizardAudience('root')).toBeNull();
    expect(wizardAudience('admin')).toBeNull();
    expect(audienceOf('customer')).toBe('customer');
    expect(audienceOf('root')).toBe('lawyer');
    expect(audienceOf('firm')).toBe('lawyer');
  });
});

describe('what blocks a submit', () => {
  it('asks the lawyer for five steps and the client for six', () => {
    expect(stepsToSubmit('lawyer')).toEqual(['personal', 'case', 'financial', 'asset', 'independent']);
    expect(stepsToSubmit('customer')).toEqual(['personal', 'client', 'case', 'financial', 'asset', 'independent']);
  });

  it('names every step of the form that fails its rules, in form order', () => {
    expect(submitBlockers(complete, 'lawyer', { today })).toEqual([]);
    expect(submitBlockers({ ...complete, client: undefined } as Journey, 'lawyer', { today })).toEqual([]);
    expect(submitBlockers({ ...complete, client: undefined } as Journey, 'customer', { today })).toEqual(['client']);
    expect(submitBlockers({ personal: complete.personal } as Journey, 'lawyer', { today })).toEqual([
      'case',
      'financial',
      'asset',
      'independent',
    ]);
    expect(submitBlockers(null, 'lawyer', { today })).toEqual(['personal', 'case', 'financial', 'asset', 'independent']);
  });
});
