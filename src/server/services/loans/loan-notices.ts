import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { loanReference } from '../../../shared/rules/loan-reference';
import { toPounds } from '../../../shared/rules/money';
import { loanStatusLabels } from '../../../shared/rules/loan-labels';
import { formatMoney } from '../../../shared/rules/formats';
import type { LoanStatus } from '../../../shared/rules/statuses';
import type { Role } from '../../../shared/rules/permissions';
import type { LoanRow } from './find-loan';
import { tellParties, type Recipient } from './loan-parties';

/** The loan's case in words: 'Cara Jones (case FAM-1)'. */
function caseOf(loan: LoanRow): string {
  const name = `${loan.clientName} ${loan.clientSurname}`.trim();
  return loan.caseRef ? `${name} (case ${loan.caseRef})` : name;
}

/**
 * Whose loan it is, to each reader (docs/decisions.md 450): the client's own ('your loan'), the
 * lawyer's client's ('the loan of your client Cara Jones (case FAM-1)'), the provider's by name.
 */
function loanOf(loan: LoanRow, reader: Recipient): string {
  if (reader === 'customer') return loan.caseRef ? `your loan (case ${loan.caseRef})` : 'your loan';
  return reader === 'lawyer' ? `the loan of your client ${caseOf(loan)}` : `the loan of ${caseOf(loan)}`;
}

/** A sentence starting with the loan: 'Your loan …', 'The loan of …'. */
function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Everyone concerned but the one who acted (staff act for the provider). */
export function othersThan(role: Role): Recipient[] {
  const party: Recipient = role === 'lawyer' ? 'lawyer' : role === 'customer' ? 'customer' : 'admin';
  return (['lawyer', 'customer', 'admin'] as const).filter((recipient) => recipient !== party);
}

export function tellLoanStatus(db: Database, config: Config, loan: LoanRow, to: LoanStatus, actorRole: Role) {
  const reference = loanReference(loan.id);
  return tellParties(db, config, loan.applicationId, othersThan(actorRole), (reader) => {
    const subject = `${reader === 'customer' ? 'Your loan' : 'Loan'} ${reference} is now ${loanStatusLabels[to]}`;
    return {
      subject,
      heading: subject,
      body: `${capitalised(loanOf(loan, reader))} was ${loanStatusLabels[loan.status]} and is now ${loanStatusLabels[to]}.`,
      action: 'Open loan',
      path: `/loans/${loan.id}`,
    };
  });
}

const pounds = (pence: number) => formatMoney(toPounds(pence));

/** Staff lowered the facility (no signature needed); a pending variation, if any, is withdrawn with it. */
export function tellLoanAmount(db: Database, config: Config, loan: LoanRow, pence: number) {
  const reference = loanReference(loan.id);
  return tellParties(db, config, loan.applicationId, ['lawyer', 'customer'], (reader) => {
    const whose = reader === 'customer' ? 'your' : reader === 'lawyer' ? "your client's" : "the client's";
    const withdrawn =
      loan.pendingAmountPence === null
        ? ''
        : ` The variation to ${pounds(loan.pendingAmountPence)} that was waiting for ${whose} signature is withdrawn.`;
    return {
      subject: `${reader === 'customer' ? 'Your loan' : 'Loan'} ${reference}: the credit offered has changed`,
      heading: 'The credit offered has changed',
      body: `The credit offered on ${loanOf(loan, reader)} is now ${pounds(pence)}.${withdrawn}`,
      action: 'Open loan',
      path: `/loans/${loan.id}`,
    };
  });
}

/**
 * Staff raised the facility above what the client signed for: the client is asked to sign the
 * variation from their loan's page, the lawyer learns what may be drawn meanwhile (decision 507).
 */
export async function tellVariationRequested(db: Database, config: Config, loan: LoanRow, pendingPence: number) {
  const reference = loanReference(loan.id);
  await tellParties(db, config, loan.applicationId, ['customer'], () => ({
    subject: `Please sign the variation of your loan ${reference}`,
    heading: 'Please sign the variation of your loan',
    body:
      `The credit of your loan ${reference} is to rise from ${pounds(loan.amountPence)} to ${pounds(pendingPence)}. ` +
      'The extra credit can be drawn once you sign the variation of your Credit Agreement: open your loan, read it and choose ‘sign variation’.',
    action: 'Open loan',
    path: `/loans/${loan.id}`,
  }));
  await tellParties(db, config, loan.applicationId, ['lawyer'], (reader) => ({
    subject: `Loan ${reference}: a variation is waiting for your client's signature`,
    heading: "A variation is waiting for your client's signature",
    body:
      `The credit of ${loanOf(loan, reader)} is to rise to ${pounds(pendingPence)} once your client signs the variation. ` +
      `Until then drawdowns count against the ${pounds(loan.amountPence)} they signed for.`,
    action: 'Open loan',
    path: `/loans/${loan.id}`,
  }));
}

/** The client signed the variation: its figure is the signed facility now. */
export function tellVariationSigned(db: Database, config: Config, loan: LoanRow, signedPence: number) {
  const reference = loanReference(loan.id);
  return tellParties(db, config, loan.applicationId, ['lawyer', 'customer', 'admin'], (reader) => {
    const who = reader === 'customer' ? 'You' : reader === 'lawyer' ? 'Your client' : 'The client';
    const which = reader === 'customer' ? `your loan ${reference}` : `loan ${reference} (${caseOf(loan)})`;
    return {
      subject: `${reader === 'customer' ? 'Your loan' : 'Loan'} ${reference}: the variation is signed`,
      heading: 'The variation is signed',
      body: `${who} signed the variation of ${which}. The credit offered is now ${pounds(signedPence)}.`,
      action: 'Open loan',
      path: `/loans/${loan.id}`,
    };
  });
}

export function tellBalanceRequested(db: Database, config: Config, loan: LoanRow) {
  const reference = loanReference(loan.id);
  return tellParties(db, config, loan.applicationId, ['admin'], () => ({
    subject: `Loan ${reference}: the lawyer asks for the loan balance`,
    heading: 'A loan balance was requested',
    body: `The lawyer of ${caseOf(loan)} asks for the balance of loan ${reference}. Please contact them.`,
    action: 'Open loan',
    path: `/loans/${loan.id}`,
  }));
}
