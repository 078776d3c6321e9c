import { isNonEmployed } from './options';
import type { JourneyStep } from './steps';

/**
 * Which top-level fields of a step are required, given the answers so far (spec section 5 "Wizard
 * steps"). One list feeds both validateStep ('required') and completeness, so the two never disagree.
 * Entries of lists (addresses, assets) are checked by validateStep; here a list counts as one field.
 */

export type Audience = 'lawyer' | 'customer';
type Data = Record<string, unknown>;

/** Checkboxes that only count when ticked: a "No" is not an answer there. */
const mustBeTrue = new Set(['clientAgree', 'consent', 'authorised']);

/** Missing means absent, null, blank text or an empty list; false and 0 are answers. */
export function isFilled(field: string, value: unknown): boolean {
  if (mustBeTrue.has(field)) return value === true;
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** The fields of an address, by how it was entered: a picked address, or typed-in parts. */
export function addressFields(type: unknown): string[] {
  if (type === 'postcode') return ['address', 'postcode'];
  if (type === 'manually') return ['postcode', 'house', 'street', 'city'];
  return [];
}

/**
 * The case step's "main" fields: every question that is not a details box. associatedCaseReferences
 * is optional: many cases have no associated case (docs/decisions.md, 082).
 */
const caseMainFields = [
  'caseRef',
  'timeEstimation',
  'stageOfProceedings',
  'disputeLevel',
  'yearsMarried',
  'settlementPrinciples',
  'preNuptualAgreement',
  'completion',
  'feeEstimate',
  'feeEstimateToReach',
  'relevantProceedings',
  'jurisDisputes',
  'maintenancePaid',
  'thirdPartyInvolvement',
  'settlementOffer',
  'outstandingFees',
  'clientSuffered',
  'dateToKnowMore',
] as const;

/** A Yes answer and the details box it opens. */
export const caseDetailFields = [
  ['preNuptualAgreement', 'preNuptialDetails'],
  ['relevantProceedings', 'relevantProceedingsDetails'],
  ['jurisDisputes', 'jurisDisputesDetails'],
  ['settlementOffer', 'clientReactionDetails'],
  ['clientSuffered', 'clientSufferedDetails'],
] as const;

const financialFields = [
  'estimationOfSettlementAmount',
  'monthlyIncome',
  'monthlyExpenditure',
  'nonEssMonthlyExpenditure',
  'intendedHousingArrangements',
] as const;

export const propertyValueFields = ['estimatedValue', 'totalSum', 'clientInterest'] as const;

export function requiredFields(step: JourneyStep, data: Data, audience: Audience): string[] {
  switch (step) {
    case 'personal': {
      const fields = [
        'firstName',
        'lastName',
        'email',
        'birthDayDay',
        'birthMonth',
        'birthYear',
        'metClient',
        'title',
        'gender',
        'nationality',
        'contactNumber',
        'dependants',
        'addressHistory',
        'status',
      ];
      if (data.dependants === true) fields.push('dependantsUnder18', 'dependantsOther');
      // Literal spec: required "unless the status is in the non-employed group", so also while no status is chosen.
      if (!isNonEmployed(data.status)) fields.push('occupation', 'employer', 'yearsWithEmployer');
      return fields;
    }
    case 'client':
      return ['clientAgree'];
    case 'case': {
      const fields: string[] = [...caseMainFields];
      for (const [question, details] of caseDetailFields) if (data[question] === true) fields.push(details);
      return fields;
    }
    case 'financial':
      return [...financialFields];
    case 'asset': {
      const fields = ['submittedFormE', 'assetValue', 'routeToRepayment'];
      if (data.submittedFormE === true) fields.push('documents');
      if (data.submittedFormE === false) {
        fields.push('additionalProperty', 'includeOtherAssets');
        if (data.additionalProperty === true)
          fields.push('addressType', ...addressFields(data.addressType), ...propertyValueFields);
        if (data.includeOtherAssets === true) fields.push('assets');
      }
      return fields;
    }
    case 'independent': {
      const fields = data.useOwnSolicitor === true ? [] : ['solicitorId'];
      // Only the lawyer confirms these (spec: "The lawyer role must also tick consent and authorised").
      if (audience === 'lawyer') fields.push('consent', 'authorised');
      return fields;
    }
  }
}

/** The asset entry's required fields: typeoOther only for the type 'other'. */
export function assetFields(type: unknown): string[] {
  return type === 'other'
    ? ['type', 'typeoOther', 'valueOfRealisable', 'clientsInterest']
    : ['type', 'valueOfRealisable', 'clientsInterest'];
}

/** The address-history entry's required fields. */
export function addressEntryFields(type: unknown): string[] {
  return ['type', ...addressFields(type), 'date'];
}
