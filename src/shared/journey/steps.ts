import type { components } from '../api/schema';

/**
 * The journey's steps. The keys name a step everywhere: the save call's path
 * (`/applications/update/{step}`), the keys of `Application.journey`, the route
 * `/applications/{id}/{step}` and the drafts kept on the device (docs/decisions.md).
 */
export const journeySteps = ['personal', 'client', 'case', 'financial', 'asset', 'independent'] as const;
export type JourneyStep = (typeof journeySteps)[number];

/** A step of a form on screen: a journey step, or the final summary, which has no fields. */
export type FormStep = JourneyStep | 'summary';

export type Journey = components['schemas']['Journey'];
export type JourneyData = {
  personal: components['schemas']['ClientDetails'];
  client: components['schemas']['ClientConfirmation'];
  case: components['schemas']['CaseDetails'];
  financial: components['schemas']['Financial'];
  asset: components['schemas']['DocumentsAndAssets'];
  independent: components['schemas']['IndependentAdvice'];
};
export type AddressHistoryEntry = components['schemas']['AddressHistoryEntry'];
export type Asset = components['schemas']['Asset'];

/**
 * The lawyer's wizard (spec section 2): six visible steps with the spec's stage letters. The client
 * confirmation ('c') is the client's own step: it exists, but the lawyer's step bar hides it.
 */
export const lawyerSteps = [
  'personal',
  'case',
  'financial',
  'asset',
  'independent',
  'summary',
] as const satisfies readonly FormStep[];

/** The client's form (customer role): the spec's keys and order. */
export const customerSteps = [
  'personal',
  'client',
  'case',
  'financial',
  'asset',
  'independent',
  'summary',
] as const satisfies readonly FormStep[];

/** The lawyer's step titles, with the spec's internal stage letters. */
export const lawyerStepTitles: Record<(typeof lawyerSteps)[number], string> = {
  personal: 'Client details',
  case: 'Case details',
  financial: 'Financial details',
  asset: 'Supporting documents and assets',
  independent: 'Independent advice',
  summary: 'Final summary and submit',
};
/** The client's step labels (spec section 2, "key: label"). */
export const customerStepTitles: Record<(typeof customerSteps)[number], string> = {
  personal: 'Personal Information',
  client: 'Client Confirmations',
  case: 'Case Information',
  financial: 'Financial Information',
  asset: 'Asset Information',
  independent: 'Independent Advice',
  summary: 'Summary',
};

export function isJourneyStep(value: string): value is JourneyStep {
  return (journeySteps as readonly string[]).includes(value);
}
