import type { Journey, JourneyData } from '../../../../shared/journey/steps';
import * as journeyFixture from '../../../../../tests/fixtures/journeys';

/** Test data from the one journey fixture: answers that pass every rule of their step (lawyer wording). */
export const validPersonal: JourneyData['personal'] = journeyFixture.validPersonal('nina@example.test');
export const validCase = journeyFixture.validSteps.case as JourneyData['case'];
export const validFinancial = journeyFixture.validSteps.financial as JourneyData['financial'];
export const validAsset = journeyFixture.validSteps.asset as JourneyData['asset'];
export const validIndependent = journeyFixture.validSteps.independent as JourneyData['independent'];

export function application(id: number, journey: Journey, overrides: Record<string, unknown> = {}) {
  const versions = Object.fromEntries(Object.keys(journey).map((step) => [step, 1]));
  return {
    id,
    lawyerId: 5,
    customerId: 7,
    firmId: 10,
    loanId: null,
    name: 'Nina',
    surname: 'Fairweather',
    clientEmail: 'nina@example.test',
    startDate: '2024-01-15T10:00:00.000Z',
    updatedAt: '2024-01-15T10:00:00.000Z',
    status: 'incomplete',
    journey,
    journeyVersions: versions,
    loanAmount: null,
    files: [],
    envelopeId: null,
    envelopeUrl: null,
    kycAmlCheck: false,
    credidCheck: false,
    repaymentVehicle: false,
    independentAdvice: false,
    lawyer: { id: 5, firstName: 'Alex', surname: 'Morgan', login: 'lawyer@example.com', firm: { id: 10, firmName: 'Firm' } },
    ...overrides,
  };
}

/** jsdom lacks what Radix measures with (ResizeObserver) and scrolls with; tests only. */
export { installDomShims } from '../../../test/dom-shims';
