import type { SessionUser } from '../../auth/sessions';
import { loanAbilities } from '../../policies/loans';
import { creditAvailablePence, type LoanFacility } from '../../../shared/rules/credit';
import { toPounds } from '../../../shared/rules/money';
import type { components } from '../../../shared/api/schema';
import type { LoanRow } from './find-loan';

type Loan = components['schemas']['Loan'];

/** The loan's facility as the credit rules read it (shared/rules/credit.ts). */
export function facilityOf(row: Pick<LoanRow, 'amountPence' | 'pendingAmountPence' | 'drawnPence'>): LoanFacility {
  return { signedPence: row.amountPence, pendingPence: row.pendingAmountPence, drawnPence: row.drawnPence };
}

/** The facts the loan policy reads, from a loaded row. */
export function loanFacts(row: LoanRow) {
  return {
    status: row.status,
    lawyerId: row.lawyerId,
    clientId: row.clientId,
    creditAvailablePence: creditAvailablePence(facilityOf(row)),
    variationToSign: row.variationToSign,
  };
}

/**
 * A loan as the wire shows it: pounds with pence (converted here, at the edge, from the integer
 * pence every sum was made in), its date (created when the client signed), the signed facility and
 * a pending one, and what the caller may do with it now.
 */
export function presentLoan(actor: SessionUser, row: LoanRow): Loan {
  const facts = loanFacts(row);
  return {
    id: row.id,
    applicationId: row.applicationId,
    date: row.createdAt.toISOString(),
    amount: toPounds(row.amountPence),
    pendingAmount: row.pendingAmountPence === null ? null : toPounds(row.pendingAmountPence),
    totalDrawdowns: toPounds(row.drawnPence),
    creditAvailable: toPounds(facts.creditAvailablePence),
    state: row.status,
    clientName: row.clientName,
    clientSurname: row.clientSurname,
    caseRef: row.caseRef,
    abilities: loanAbilities(actor, facts),
  };
}
