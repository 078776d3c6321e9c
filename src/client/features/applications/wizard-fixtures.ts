import type { Journey, JourneyData } from '../../../shared/journey/steps';

/** Test data: answers that pass every rule of their step (lawyer wording). */
export const validPersonal: JourneyData['personal'] = {
  firstName: 'Nina',
  lastName: 'Fairweather',
  email: 'nina@example.test',
  birthDayDay: 2,
  birthMonth: 7,
  birthYear: 1985,
  metClient: true,
  title: 'Ms',
  gender: 'Female',
  nationality: 'British',
  contactNumber: '07700 900555',
  dependants: false,
  addressHistory: [
    { type: 'manually', postcode: 'LS1 4DY', house: '5', street: 'Park Row', city: 'Leeds', date: '2019-03-01' },
  ],
  status: 'retired',
};

export const validCase: JourneyData['case'] = {
  caseRef: 'NF-2026-77',
  timeEstimation: '9 months',
  stageOfProceedings: 'First appointment',
  disputeLevel: 'optionC',
  yearsMarried: 8,
  settlementPrinciples: 'Equal division',
  preNuptualAgreement: false,
  completion: 'less',
  feeEstimate: 40000,
  feeEstimateToReach: 30000,
  relevantProceedings: false,
  jurisDisputes: false,
  maintenancePaid: false,
  thirdPartyInvolvement: false,
  settlementOffer: false,
  outstandingFees: 0,
  clientSuffered: false,
  dateToKnowMore: '2026-12-01',
};

export const validFinancial: JourneyData['financial'] = {
  estimationOfSettlementAmount: 300000,
  monthlyIncome: 2500,
  monthlyExpenditure: 1800,
  nonEssMonthlyExpenditure: 200,
  intendedHousingArrangements: 'Rent near family',
};

export const validAsset: JourneyData['asset'] = {
  submittedFormE: false,
  additionalProperty: false,
  includeOtherAssets: false,
  assetValue: 300000,
  routeToRepayment: 'Settlement proceeds',
};

export const validIndependent: JourneyData['independent'] = { useOwnSolicitor: true, consent: true, authorised: true };

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
    lawyer: { id: 5, name: 'Alex', surname: 'Morgan', email: 'lawyer@example.com', firmId: 10, firmName: 'Firm' },
    ...overrides,
  };
}

/** jsdom lacks what Radix measures with (ResizeObserver) and scrolls with; tests only. */
export function installDomShims(): void {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
}
