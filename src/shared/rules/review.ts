import type { components } from '../api/schema';
import type { Role } from './permissions';
import { isStaff } from './permissions';
import type { ApplicationStatus } from './statuses';
import { applicationTransitions, transitionAllowedFrom } from './transitions';

/**
 * The provider's review of an application and the preparation of its contract (spec
 * applications-and-access section 4, 'Admin review screen rules'), read by the server (may this be
 * done now?) and by the screens (the record's abilities say the same). docs/decisions.md 270-272.
 */
export type ApplicationCheck = components['schemas']['ApplicationCheck'];

/** 'KYC/AML checks completed', 'Credit Check completed', 'Repayment Vehicle assessed': ticked in the review state. */
export const reviewChecks = ['kycAmlCheck', 'credidCheck', 'repaymentVehicle'] as const satisfies readonly ApplicationCheck[];

/** 'Certificate of independent advice uploaded': ticked in the prepare state, once a Certificate of Advice is uploaded. */
export const prepareChecks = ['independentAdvice'] as const satisfies readonly ApplicationCheck[];

export const applicationChecks: readonly ApplicationCheck[] = [...reviewChecks, ...prepareChecks];

export const applicationCheckLabels: Record<ApplicationCheck, string> = {
  kycAmlCheck: 'KYC/AML checks completed',
  credidCheck: 'Credit Check completed',
  repaymentVehicle: 'Repayment Vehicle assessed',
  independentAdvice: 'Certificate of independent advice uploaded',
};

type Checks = Record<ApplicationCheck, boolean>;

/** The review state: the application is submitted and staff decide. */
export function isReviewStatus(status: string): boolean {
  return status === 'submitted';
}

/**
 * The prepare state: accepted by the provider, the envelope not prepared yet: the statuses the
 * table lets `esignPrepared` start from.
 */
export const prepareStatuses: readonly ApplicationStatus[] = applicationTransitions.esignPrepared.from;

export function isPrepareStatus(status: string): boolean {
  return (prepareStatuses as readonly string[]).includes(status);
}

/**
 * Where staff work on an application: the review and prepare states. Staff change its documents
 * and its draft loan amount there; from esignPrepared on, the envelope is made from them.
 */
export function isStaffWorkStatus(status: string): boolean {
  return isReviewStatus(status) || isPrepareStatus(status);
}

/** Whether the check may be ticked or unticked in this status (its state, not who asks). */
export function checkOpenIn(check: ApplicationCheck, status: string): boolean {
  return (reviewChecks as readonly string[]).includes(check) ? isReviewStatus(status) : isPrepareStatus(status);
}

/** The checks this role may tick or untick now (staff only). */
export function openChecks(role: Role, status: string): ApplicationCheck[] {
  return isStaff(role) ? applicationChecks.filter((check) => checkOpenIn(check, status)) : [];
}

/** 'accept' is enabled only when all three review checks are ticked. */
export function reviewChecksComplete(application: Pick<Checks, (typeof reviewChecks)[number]>): boolean {
  return reviewChecks.every((check) => application[check]);
}

/**
 * Transitions made by their own calls, with their side effects (the envelope, the notice, the
 * signature and the loan): POST /applications/state/update refuses them (409 `ownCall`).
 */
export const transitionsByOwnCall: readonly ApplicationStatus[] = [
  'esignPrepared',
  'customerNotified',
  'esignComplete',
  'customerAccepted',
];

export function isTransitionByOwnCall(to: string): boolean {
  return (transitionsByOwnCall as readonly string[]).includes(to);
}

/** 'prepare docusign' is enabled once the certificate is ticked, while the table allows esignPrepared. */
export function mayPrepareEnvelope(application: { status: string; independentAdvice: boolean }): boolean {
  return application.independentAdvice && transitionAllowedFrom(applicationTransitions, application.status, 'esignPrepared');
}

/**
 * The client still has to get independent legal advice: the provider has accepted the application
 * and no certificate of advice is ticked yet. Only then is 'view documents and get independent
 * advice' true (docs/decisions.md 446); once the certificate is in, the documents are only viewed.
 */
export function awaitsIndependentAdvice(application: { status: string; independentAdvice: boolean }): boolean {
  return isPrepareStatus(application.status) && !application.independentAdvice;
}
