import type { SessionUser } from '../../auth/sessions';
import type { ReminderConfig } from '../../config';
import { isStaff } from '../../../shared/rules/permissions';
import { lastReminderOf } from '../reminders/last-reminder';
import { drawdownAbilities } from '../../policies/drawdowns';
import { toPounds } from '../../../shared/rules/money';
import type { components } from '../../../shared/api/schema';
import type { DrawdownListRow, DrawdownRow } from './find-drawdown';

type Drawdown = components['schemas']['Drawdown'];
type DrawdownListItem = components['schemas']['DrawdownListItem'];

/** The facts the drawdown policy reads, from a loaded row. */
export function drawdownFacts(row: DrawdownRow) {
  return {
    status: row.status,
    loanStatus: row.loanStatus,
    lawyerId: row.lawyerId,
    clientId: row.clientId,
    requestedBy: row.requestedBy,
  };
}

/** A drawdown as a list shows it: pounds with pence, converted here from the integer pence of every sum. */
export function presentDrawdownItem(row: DrawdownListRow): DrawdownListItem {
  return {
    id: row.id,
    loanId: row.loanId,
    applicationId: row.applicationId,
    firstName: row.firstName,
    lastName: row.lastName,
    caseRef: row.caseRef,
    status: row.status,
    amount: toPounds(row.amountPence),
    date: row.createdAt.toISOString(),
    loanAmount: toPounds(row.loanAmountPence),
    totalDrawdownsAmount: toPounds(row.loanDrawnPence),
  };
}

/**
 * One drawdown, everything its page shows, with what the caller may do with it now; staff also
 * read when the last reminder of its wait went out (docs/decisions.md 698).
 */
export function presentDrawdown(actor: SessionUser, row: DrawdownRow, reminders: ReminderConfig): Drawdown {
  return {
    ...presentDrawdownItem(row),
    invoiceNumber: row.invoiceNumber,
    stageOfCase: row.stageOfCase,
    materialChanges: row.materialChanges,
    materialChangesDetails: row.materialChangesDetails,
    nextHearingDate: row.nextHearingDate,
    finalOrderDate: row.finalOrderDate,
    reaplyAssets: row.reaplyAssets,
    expectedRepaymentDate: row.expectedRepaymentDate,
    clientExpectedRepaymentDate: row.clientExpectedRepaymentDate,
    lawyerDeclarations: row.lawyerDeclarations as Drawdown['lawyerDeclarations'],
    ...(row.clientDeclarations ? { clientDeclarations: row.clientDeclarations as Drawdown['clientDeclarations'] } : {}),
    clientApprovedAt: row.clientApprovedAt ? row.clientApprovedAt.toISOString() : null,
    abilities: drawdownAbilities(actor, drawdownFacts(row)),
    ...(isStaff(actor.role) ? { lastReminder: lastReminderOf(row, reminders) } : {}),
  };
}
