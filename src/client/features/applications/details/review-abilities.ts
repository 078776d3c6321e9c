import type { Application } from '../applications-api';
import type { ReviewCheck } from '../offline/review-mutations';

/** What the details screen offers, as the server lists it on the record (decision 301). */
export type DetailsAbilities = Omit<Required<Application>['abilities'], 'checks'> & { checks: readonly ReviewCheck[] };

/** A saved copy from before the server named an ability offers nothing until the record is read again. */
const none: DetailsAbilities = {
  editJourney: false,
  submit: false,
  transitions: [],
  changeDocuments: [],
  checks: [],
  accept: false,
  reject: false,
  withdraw: false,
  updateLoanAmount: false,
  prepareEnvelope: false,
  notifyClient: false,
  sign: false,
  readEmails: false,
  inviteClient: false,
};

/** The record's abilities: the server's word, never worked out again on the screen. */
export function detailsAbilities(application: Application): DetailsAbilities {
  return { ...none, ...(application as Partial<Application>).abilities };
}
