import type { LoanStatus } from '../../../shared/rules/statuses';
import type { Loan } from './loans-api';

/** What the caller may do with a loan now, as the server lists it on the record. */
export interface LoanAbilities {
  transitions: LoanStatus[];
  requestDrawdown: boolean;
  requestBalance: boolean;
  updateAmount: boolean;
}

const none: LoanAbilities = { transitions: [], requestDrawdown: false, requestBalance: false, updateAmount: false };

export function loanAbilities(loan: Loan): LoanAbilities {
  const abilities = (loan as Loan & { abilities?: Partial<LoanAbilities> }).abilities;
  return { ...none, ...(abilities ?? {}) };
}
