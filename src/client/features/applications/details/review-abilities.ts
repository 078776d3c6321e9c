import type { Application } from '../applications-api';
import type { ReviewCheck } from '../offline/review-mutations';

/** What the details screen offers, as the server lists it on the record (decision 301). */
export interface DetailsAbilities {
  checks: readonly ReviewCheck[];
  accept: boolean;
  reject: boolean;
  prepareEnvelope: boolean;
  notifyClient: boolean;
  updateLoanAmount: boolean;
  sign: boolean;
  withdraw: boolean;
  readEmails: boolean;
  changeDocuments: readonly string[];
}

const reviewCheckList: readonly ReviewCheck[] = ['kycAmlCheck', 'credidCheck', 'repaymentVehicle'];

/**
 * The record's abilities. Each named ability is the server's word; where the record does not carry
 * it yet (a server or a saved copy from before it did), the transitions the server listed for the
 * caller stand in: the move each action makes. A saved copy without abilities offers nothing.
 */
export function detailsAbilities(application: Application): DetailsAbilities {
  const given = (application as Partial<Application>).abilities;
  const moves = given?.transitions ?? [];
  const may = (status: (typeof moves)[number]) => moves.includes(status);
  const fallbackChecks: ReviewCheck[] = [
    ...(may('providerAccepted') ? reviewCheckList : []),
    ...(may('esignPrepared') ? (['independentAdvice'] as const) : []),
  ];
  return {
    checks: given?.checks ?? fallbackChecks,
    accept: given?.accept ?? may('providerAccepted'),
    reject: given?.reject ?? may('providerRejected'),
    prepareEnvelope: given?.prepareEnvelope ?? may('esignPrepared'),
    notifyClient: given?.notifyClient ?? may('customerNotified'),
    updateLoanAmount: given?.updateLoanAmount ?? false,
    sign: given?.sign ?? may('customerAccepted'),
    withdraw: given?.withdraw ?? may('customerRejected'),
    // Staff's screen only; a server that does not say yet leaves the section to its own answer.
    readEmails: given?.readEmails ?? true,
    changeDocuments: given?.changeDocuments ?? [],
  };
}

export const reviewCheckLabels: Record<ReviewCheck, string> = {
  kycAmlCheck: 'KYC/AML checks completed',
  credidCheck: 'Credit Check completed',
  repaymentVehicle: 'Repayment Vehicle assessed',
  independentAdvice: 'Certificate of independent advice uploaded',
};

export const reviewChecksOfReview: readonly ReviewCheck[] = reviewCheckList;
