import { describe, expect, it } from 'vitest';
import {
  firstIncompleteStep,
  isStepComplete,
  isStepLocked,
  isStepReachable,
  needsFormEDocuments,
  requiredFilled,
} from './completeness';
import { customerSteps, lawyerSteps, type Journey, type JourneyData } from './steps';

const personalFull: JourneyData['personal'] = {
  firstName: 'Jane',
  lastName: 'Smith',
  email: 'jane@example.com',
  birthDayDay: 1,
  birthMonth: 1,
  birthYear: 1980,
  metClient: false,
  title: 'Ms',
  gender: 'Female',
  nationality: 'British',
  contactNumber: '0207 946 0000',
  dependants: false,
  addressHistory: [{ type: 'postcode', postcode: 'SW1A 1AA', address: '10 Downing St', date: '2020-01-01' }],
  status: 'retired',
};
const full: Journey = {
  personal: personalFull,
  client: { clientAgree: true },
  case: {
    caseRef: 'A',
    timeEstimation: 'B',
    stageOfProceedings: 'C',
    disputeLevel: 'optionA',
    yearsMarried: 1,
    settlementPrinciples: 'D',
    preNuptualAgreement: false,
    completion: 'less',
    feeEstimate: 1,
    feeEstimateToReach: 1,
    relevantProceedings: false,
    jurisDisputes: false,
    maintenancePaid: true,
    thirdPartyInvolvement: false,
    settlementOffer: false,
    outstandingFees: 0,
    clientSuffered: false,
    dateToKnowMore: '2025-01-01',
  },
  financial: {
    estimationOfSettlementAmount: 1,
    monthlyIncome: 1,
    monthlyExpenditure: 1,
    nonEssMonthlyExpenditure: 1,
    intendedHousingArrangements: 'x',
  },
  asset: { submittedFormE: true, documents: [1], assetValue: 1, routeToRepayment: 'x' },
  independent: { solicitorId: 2, consent: true, authorised: true },
};

describe('requiredFilled', () => {
  it('counts the required fields the answers call for', () => {
    expect(requiredFilled('personal', personalFull, 'lawyer')).toEqual({ filled: 14, required: 14 });
    // An employed status adds occupation, employer and years; dependants add the two counts.
    expect(requiredFilled('personal', { ...personalFull, status: 'employedFullTime', dependants: true }, 'lawyer')).toEqual({
      filled: 14,
      required: 19,
    });
    expect(requiredFilled('personal', undefined, 'lawyer')).toEqual({ filled: 0, required: 17 });
    expect(requiredFilled('personal', { firstName: '  ', addressHistory: [] }, 'lawyer').filled).toBe(0);
  });
  it('counts false as an answer, but not an unticked confirmation', () => {
    expect(requiredFilled('client', { clientAgree: false }, 'customer')).toEqual({ filled: 0, required: 1 });
    expect(requiredFilled('independent', { solicitorId: null, consent: false, authorised: true }, 'lawyer')).toEqual({
      filled: 1,
      required: 3,
    });
    expect(requiredFilled('independent', { useOwnSolicitor: true }, 'customer')).toEqual({ filled: 0, required: 0 });
  });
  it('follows the Form E choice', () => {
    expect(requiredFilled('asset', { submittedFormE: true, assetValue: 1 }, 'lawyer')).toEqual({ filled: 2, required: 4 });
    expect(
      requiredFilled(
        'asset',
        { submittedFormE: false, additionalProperty: true, addressType: 'manually', includeOtherAssets: true },
        'lawyer',
      ),
    ).toEqual({ filled: 4, required: 14 });
  });
});

describe('isStepComplete (spec: at least one required field filled)', () => {
  it('is complete with one required field', () => {
    expect(isStepComplete('personal', { personal: { firstName: 'Jane' } }, 'lawyer')).toBe(true);
    expect(isStepComplete('personal', { personal: { preferedName: 'Jane' } }, 'lawyer')).toBe(false);
    expect(isStepComplete('case', {}, 'lawyer')).toBe(false);
    expect(isStepComplete('case', undefined, 'lawyer')).toBe(false);
  });
  it('counts a saved step with nothing required as complete', () => {
    expect(isStepComplete('independent', { independent: { useOwnSolicitor: true } }, 'customer')).toBe(true);
    expect(isStepComplete('independent', {}, 'customer')).toBe(false);
  });
  it('completes the summary when every earlier step of the audience’s form is', () => {
    expect(isStepComplete('summary', full, 'lawyer')).toBe(true);
    // The lawyer's form has no client confirmation; the customer's has.
    expect(isStepComplete('summary', { ...full, client: {} }, 'lawyer')).toBe(true);
    expect(isStepComplete('summary', { ...full, client: {} }, 'customer')).toBe(false);
    expect(isStepComplete('summary', { ...full, financial: undefined }, 'lawyer')).toBe(false);
  });
});

describe('lawyer locking', () => {
  it('never locks the first step, and locks the others until the one before is complete', () => {
    expect(isStepLocked(lawyerSteps, 'personal', {}, 'lawyer')).toBe(false);
    expect(isStepLocked(lawyerSteps, 'case', {}, 'lawyer')).toBe(true);
    expect(isStepLocked(lawyerSteps, 'case', { personal: { firstName: 'J' } }, 'lawyer')).toBe(false);
    expect(isStepLocked(lawyerSteps, 'financial', { personal: { firstName: 'J' } }, 'lawyer')).toBe(true);
    expect(isStepLocked(lawyerSteps, 'summary', full, 'lawyer')).toBe(false);
    expect(isStepLocked(lawyerSteps, 'client', full, 'lawyer')).toBe(true); // not in the lawyer's list
  });
  it('opens the first step that is not complete, or the summary', () => {
    expect(firstIncompleteStep(lawyerSteps, {}, 'lawyer')).toBe('personal');
    expect(firstIncompleteStep(lawyerSteps, { personal: { firstName: 'J' }, case: { caseRef: 'x' } }, 'lawyer')).toBe(
      'financial',
    );
    expect(firstIncompleteStep(lawyerSteps, full, 'lawyer')).toBe('summary');
  });
});

describe('customer reachability (every earlier required field filled)', () => {
  it('reaches a step only when all earlier required fields are filled', () => {
    expect(isStepReachable(customerSteps, 'personal', {}, 'customer')).toBe(true);
    expect(isStepReachable(customerSteps, 'client', { personal: { firstName: 'J' } }, 'customer')).toBe(false);
    expect(isStepReachable(customerSteps, 'client', { personal: personalFull }, 'customer')).toBe(true);
    expect(isStepReachable(customerSteps, 'case', { personal: personalFull, client: { clientAgree: false } }, 'customer')).toBe(
      false,
    );
    expect(isStepReachable(customerSteps, 'summary', full, 'customer')).toBe(true);
    expect(isStepReachable(customerSteps, 'summary', { ...full, financial: { monthlyIncome: 1 } }, 'customer')).toBe(false);
    expect(isStepLocked(customerSteps, 'case', { personal: personalFull }, 'customer')).toBe(true);
    expect(isStepLocked(customerSteps, 'client', { personal: personalFull }, 'customer')).toBe(false);
  });
  it('opens the first step with a required field missing', () => {
    expect(firstIncompleteStep(customerSteps, { personal: { firstName: 'J' } }, 'customer')).toBe('personal');
    expect(firstIncompleteStep(customerSteps, { personal: personalFull }, 'customer')).toBe('client');
    expect(firstIncompleteStep(customerSteps, full, 'customer')).toBe('summary');
  });
});

describe('needsFormEDocuments', () => {
  it('is true only with Form E declared and no documents', () => {
    expect(needsFormEDocuments({ asset: { submittedFormE: true } })).toBe(true);
    expect(needsFormEDocuments({ asset: { submittedFormE: true, documents: [] } })).toBe(true);
    expect(needsFormEDocuments({ asset: { submittedFormE: true, documents: [4] } })).toBe(false);
    expect(needsFormEDocuments({ asset: { submittedFormE: false } })).toBe(false);
    expect(needsFormEDocuments({})).toBe(false);
    expect(needsFormEDocuments(null)).toBe(false);
  });
});
