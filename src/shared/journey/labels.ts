import { INDEPENDENT_ADVICE_FEE } from '../rules/independent-advice';
import { formatDate, formatMoney } from '../rules/formats';
import { monthName } from '../rules/months';
import { formatPostcode } from './address';
import {
  addressEntryTypes,
  assetTypes,
  completionBands,
  disputeLevels,
  employmentStatuses,
  genders,
  optionLabel,
  titles,
  type Option,
} from './options';
import type { Audience } from './required';
import type { JourneyStep } from './steps';

/**
 * Every question of the journey, worded for who is answering: the lawyer is asked about 'your
 * client', the client about 'you' (spec section 2). The forms and the server's PDF both read these.
 */

type Wording = string | { lawyer: string; customer: string };
const ask = (lawyer: string, customer: string): Wording => ({ lawyer, customer });

/** Fields inside list entries are keyed 'addressHistory.date' and 'assets.type'. */
const labels: Record<JourneyStep, Record<string, Wording>> = {
  personal: {
    firstName: 'First name',
    lastName: 'Last name',
    preferedName: 'Preferred name (optional)',
    email: 'Email address',
    birthDayDay: 'Day',
    birthMonth: 'Month',
    birthYear: 'Year',
    birthDate: 'Date of birth',
    metClient: ask('Have you met your client in person?', 'Has your lawyer met you in person?'),
    title: 'Title',
    gender: 'Gender',
    nationality: 'Nationality',
    contactNumber: 'Contact number',
    dependants: ask('Has your client got dependants?', 'Have you got dependants?'),
    dependantsUnder18: 'How many are under 18?',
    dependantsOther: 'How many are 18 or over?',
    addressHistory: ask(
      'Your client’s addresses over the last 2 years, latest first',
      'Your addresses over the last 2 years, latest first',
    ),
    'addressHistory.type': 'How do you want to enter the address?',
    'addressHistory.postcode': 'Postcode',
    'addressHistory.address': 'Address',
    'addressHistory.house': 'House name or number',
    'addressHistory.street': 'Street',
    'addressHistory.city': 'Town or city',
    'addressHistory.date': 'Moved in (month and year)',
    status: ask('What is your client’s employment status?', 'What is your employment status?'),
    occupation: 'Occupation',
    employer: 'Employer',
    yearsWithEmployer: 'Years with employer',
  },
  client: {
    clientAgree: ask(
      'Your client confirms the information in this application is true and complete',
      'I confirm the information in this application is true and complete',
    ),
  },
  case: {
    caseRef: 'Case reference',
    associatedCaseReferences: 'Associated case references (optional)',
    timeEstimation: 'How long is the case expected to take?',
    stageOfProceedings: 'What stage have the proceedings reached?',
    disputeLevel: 'How contentious is the dispute?',
    yearsMarried: ask('How many years was your client married?', 'How many years were you married?'),
    settlementPrinciples: 'What are the principles of the settlement being sought?',
    preNuptualAgreement: 'Is there a pre-nuptial agreement?',
    preNuptialDetails: 'Please give details of the pre-nuptial agreement',
    completion: 'How likely is the case to reach a settlement?',
    feeEstimate: 'Fee estimate (total facility amount)',
    feeEstimateToReach: 'Fee estimate to reach settlement',
    relevantProceedings: 'Are there any other relevant proceedings?',
    relevantProceedingsDetails: 'Please give details of the other proceedings',
    jurisDisputes: 'Are there any disputes about jurisdiction?',
    jurisDisputesDetails: 'Please give details of the jurisdictional disputes',
    maintenancePaid: ask('Is maintenance being paid to your client?', 'Is maintenance being paid to you?'),
    thirdPartyInvolvement: 'Are any third parties involved?',
    settlementOffer: 'Has a settlement offer been made?',
    clientReactionDetails: ask('How did your client react to the offer?', 'How did you react to the offer?'),
    outstandingFees: 'Outstanding legal fees',
    clientSuffered: ask(
      'Has your client suffered any illness or condition that may affect the case?',
      'Have you suffered any illness or condition that may affect the case?',
    ),
    clientSufferedDetails: 'Please give details of the illness or condition',
    dateToKnowMore: 'When will more be known about the case (for example, the next hearing)?',
  },
  financial: {
    estimationOfSettlementAmount: 'Estimated settlement amount',
    monthlyIncome: ask('Your client’s monthly income', 'Your monthly income'),
    monthlyExpenditure: ask('Your client’s monthly essential expenditure', 'Your monthly essential expenditure'),
    nonEssMonthlyExpenditure: ask('Your client’s monthly non-essential expenditure', 'Your monthly non-essential expenditure'),
    intendedHousingArrangements: ask(
      'What are your client’s intended housing arrangements?',
      'What are your intended housing arrangements?',
    ),
  },
  asset: {
    submittedFormE: 'Has a Form E been completed?',
    documents: 'Form E documents (PDF)',
    additionalProperty: ask('Does your client own any other property?', 'Do you own any other property?'),
    addressType: 'How do you want to enter the property address?',
    address: 'Property address',
    house: 'House name or number',
    street: 'Street',
    city: 'Town or city',
    postcode: 'Postcode',
    estimatedValue: 'Estimated value of the property',
    totalSum: 'Total outstanding mortgage or loans secured on the property',
    clientInterest: ask('Your client’s interest in the property (%)', 'Your interest in the property (%)'),
    includeOtherAssets: ask('Does your client have any other assets to include?', 'Do you have any other assets to include?'),
    assets: 'Other assets',
    'assets.type': 'Type of asset',
    'assets.typeoOther': 'What kind of asset is it?',
    'assets.valueOfRealisable': 'Realisable value',
    'assets.clientsInterest': ask('Your client’s interest in the asset (%)', 'Your interest in the asset (%)'),
    additionalInformation: 'Additional information (optional)',
    assetValue: 'Total value of the assets',
    routeToRepayment: 'How will the funding be repaid?',
  },
  independent: {
    solicitorId: ask(
      'Choose a solicitor to give your client independent advice',
      'Choose a solicitor to give you independent advice',
    ),
    useOwnSolicitor: ask('Your client will use their own solicitor', 'I will use my own solicitor'),
    // The lawyer must tick both (spec section 5); the client's own form may show them as its own consent.
    consent: ask(
      'My client consents to their details being shared with the solicitor for independent advice',
      'I consent to my details being shared with the solicitor for independent advice',
    ),
    authorised: ask(
      'I am authorised by my client to submit this application on their behalf',
      'I authorise my lawyer to submit this application on my behalf',
    ),
  },
};

/** The independent advice fee (spec section 9), for the step's explanation. */
export function independentAdviceText(audience: Audience): string {
  return audience === 'lawyer'
    ? `Your client must get independent legal advice before signing. The fixed fee is ${INDEPENDENT_ADVICE_FEE}.`
    : `You must get independent legal advice before signing. The fixed fee is ${INDEPENDENT_ADVICE_FEE}.`;
}

/**
 * The question for a field. Accepts a list entry's dotted path ('assets.0.type'): the index is
 * ignored. Falls back to the field name, so a new field shows something rather than nothing.
 */
export function fieldLabel(step: JourneyStep, field: string, audience: Audience): string {
  const key = field
    .split('.')
    .filter((part) => !/^\d+$/.test(part))
    .join('.');
  const wording = labels[step]?.[key];
  if (wording === undefined) return field;
  return typeof wording === 'string' ? wording : wording[audience];
}

/** The fields that have a label, in question order (the PDF prints a step in this order). */
export function labelledFields(step: JourneyStep): string[] {
  return Object.keys(labels[step]);
}

export const yesNo: readonly Option<'yes' | 'no'>[] = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

const optionLists: Record<string, readonly Option<string>[]> = {
  title: titles,
  gender: genders,
  status: employmentStatuses,
  disputeLevel: disputeLevels,
  completion: completionBands,
  type: [...assetTypes, ...addressEntryTypes],
  addressType: addressEntryTypes,
};
const moneyFields = new Set([
  'feeEstimate',
  'feeEstimateToReach',
  'outstandingFees',
  'estimationOfSettlementAmount',
  'monthlyIncome',
  'monthlyExpenditure',
  'nonEssMonthlyExpenditure',
  'estimatedValue',
  'totalSum',
  'valueOfRealisable',
  'assetValue',
]);
const percentFields = new Set(['clientInterest', 'clientsInterest']);

/**
 * A saved answer as text (the summary step and the PDF): Yes/No, option labels, £ amounts,
 * DD/MM/YYYY dates, printed postcodes. Lists and ids are the caller's to show.
 */
export function valueLabel(field: string, value: unknown): string {
  const key = field.split('.').pop() ?? field;
  if (value === undefined || value === null || value === '') return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (key === 'birthMonth' && typeof value === 'number') return monthName(value);
  if (key === 'postcode') return formatPostcode(value);
  if (optionLists[key]) return optionLabel(optionLists[key], value);
  if (moneyFields.has(key) && typeof value === 'number') return formatMoney(value);
  if (percentFields.has(key) && typeof value === 'number') return `${value}%`;
  if ((key === 'date' || key === 'dateToKnowMore') && typeof value === 'string') {
    if (key === 'date' && /^\d{4}-\d{2}/.test(value)) return `${monthName(Number(value.slice(5, 7)))} ${value.slice(0, 4)}`;
    return formatDate(`${value}T12:00:00Z`) || value;
  }
  return Array.isArray(value) ? value.map(String).join(', ') : String(value);
}
