import type { Loan } from './loans-api';

/** What the caller may do with a loan now, as the server lists it on the record. */
export type LoanAbilities = Loan['abilities'];

const none: LoanAbilities = {
  transitions: [],
  requestDrawdown: false,
  requestBalance: false,
  updateAmount: false,
  signVariation: false,
};

/** The record's abilities; a saved copy written by an earlier version may lack them, and then offers nothing. */
export function loanAbilities(loan: Loan): LoanAbilities {
  return { ...none, ...((loan as Partial<Loan>).abilities ?? {}) };
}
