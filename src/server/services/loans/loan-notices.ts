import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { loanReference } from '../../../shared/rules/money';
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

export function tellLoanAmount(db: Database, config: Config, loan: LoanRow, pounds: number) {
  const reference = loanReference(loan.id);
  return tellParties(db, config, loan.applicationId, ['lawyer', 'customer'], (reader) => ({
    subject: `${reader === 'customer' ? 'Your loan' : 'Loan'} ${reference}: the credit offered has changed`,
    heading: 'The credit offered has changed',
    body: `The credit offered on ${loanOf(loan, reader)} is now ${formatMoney(pounds)}.`,
    action: 'Open loan',
    path: `/loans/${loan.id}`,
  }));
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
