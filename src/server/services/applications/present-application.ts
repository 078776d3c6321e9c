import type { SessionUser } from '../../auth/sessions';
import type { ReminderConfig } from '../../config';
import type { Database } from '../../db/connection';
import * as applicationPolicy from '../../policies/applications';
import { changeableDocumentTypes } from '../../policies/files';
import { listApplicationFiles } from '../files/file-record';
import type { components } from '../../../shared/api/schema';
import { toPounds } from '../../../shared/rules/money';
import type { ApplicationStatus } from '../../../shared/rules/statuses';
import { allowedApplicationTransitions, isEditableStatus } from '../../../shared/rules/transitions';
import { isStaffWorkStatus, mayPrepareEnvelope, openChecks, reviewChecksComplete } from '../../../shared/rules/review';
import type { ApplicationRow } from './find-application';
import { loadJourney } from './load-journey';
import { lastReminderOf } from '../reminders/last-reminder';

export type ApplicationRecord = components['schemas']['Application'];
type ApplicationAbilities = components['schemas']['ApplicationAbilities'];

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/**
 * What the caller may do with the application now: the shared rules and the policy, worked out
 * once, for the record and for each item of the list, so the screens never work a rule out again
 * (docs/decisions.md 189, 274).
 */
export function applicationAbilities(
  actor: SessionUser,
  row: Pick<
    ApplicationRow,
    'status' | 'lawyerId' | 'clientId' | 'kycAmlCheck' | 'credidCheck' | 'repaymentVehicle' | 'independentAdvice'
  > & { clientStatus?: string; loanId?: number | null; envelopeId?: string | null },
): ApplicationAbilities {
  const status = row.status as ApplicationStatus;
  const transitions = allowedApplicationTransitions(actor.role, status);
  const staff = applicationPolicy.can(actor, 'review', row);
  return {
    editJourney: isEditableStatus(status) && applicationPolicy.can(actor, 'editJourney', row),
    submit: transitions.includes('submitted') && applicationPolicy.can(actor, 'submit', row),
    transitions,
    changeDocuments: changeableDocumentTypes(actor, status),
    checks: staff ? openChecks(actor.role, status) : [],
    accept: staff && transitions.includes('providerAccepted') && reviewChecksComplete(row),
    reject: staff && transitions.includes('providerRejected'),
    withdraw: transitions.includes('customerRejected') && applicationPolicy.can(actor, 'withdraw', row),
    updateLoanAmount: staff && isStaffWorkStatus(status),
    prepareEnvelope: staff && transitions.includes('esignPrepared') && mayPrepareEnvelope(row),
    notifyClient: staff && transitions.includes('customerNotified'),
    sign: transitions.includes('customerAccepted') && applicationPolicy.can(actor, 'sign', row),
    readEmails: staff,
    // Known on the record only (the list does not read the client's account): decision 344.
    ...(row.clientStatus === undefined
      ? {}
      : { inviteClient: row.clientStatus === 'invited' && applicationPolicy.can(actor, 'inviteClient', row) }),
    // Signed in the portal: signing made the loan from the envelope; a loan made otherwise (the
    // demo's, one moved in) has no signed documents to offer (decision 449). Record only.
    ...(row.loanId === undefined || row.envelopeId === undefined
      ? {}
      : {
          downloadSignedDocuments:
            row.loanId !== null && row.envelopeId !== null && applicationPolicy.can(actor, 'readSignedDocuments', row),
        }),
  };
}

/**
 * The Application of the contract, as the caller may see it; staff also read when the last
 * reminder of its wait went out (docs/decisions.md 698).
 */
export async function presentApplication(
  db: Database,
  actor: SessionUser,
  row: ApplicationRow,
  reminders: ReminderConfig,
): Promise<ApplicationRecord> {
  const [{ journey, versions }, fileRecords] = await Promise.all([
    loadJourney(db, row.id),
    listApplicationFiles(db, actor, row.id),
  ]);
  return {
    id: row.id,
    lawyerId: row.lawyerId,
    customerId: row.clientId,
    firmId: row.firmId,
    loanId: row.loanId,
    name: row.name,
    surname: row.surname,
    clientEmail: row.clientEmail,
    startDate: iso(row.startedAt),
    updatedAt: iso(row.updatedAt),
    status: row.status as ApplicationRecord['status'],
    journey,
    journeyVersions: versions,
    loanAmount: row.loanAmountPence === null ? null : row.loanAmountPence / 100,
    // Once signed, the application shows its loan's facility as it is now (docs/decisions.md, 513).
    loanFacility:
      row.loanId === null || row.loanSignedPence === null
        ? null
        : {
            loanId: row.loanId,
            amount: toPounds(row.loanSignedPence),
            pendingAmount: row.loanPendingPence === null ? null : toPounds(row.loanPendingPence),
          },
    files: fileRecords,
    envelopeId: row.envelopeId,
    envelopeUrl: row.envelopeUrl,
    kycAmlCheck: row.kycAmlCheck,
    credidCheck: row.credidCheck,
    repaymentVehicle: row.repaymentVehicle,
    independentAdvice: row.independentAdvice,
    lawyer: {
      id: row.lawyerId,
      firstName: row.lawyerFirstName,
      surname: row.lawyerSurname,
      login: row.lawyerLogin,
      firm: { id: row.firmId, firmName: row.firmName },
    },
    abilities: applicationAbilities(actor, row),
    ...(applicationPolicy.can(actor, 'review', row) ? { lastReminder: lastReminderOf(row, reminders) } : {}),
  };
}
