import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { applications, clients, lawyers } from '../db/schema';
import type { SessionUser } from '../auth/sessions';
import type { components } from '../../shared/api/schema';
import { isStaff } from '../../shared/rules/permissions';
import type { ApplicationStatus } from '../../shared/rules/statuses';
import { applicationScope, editableStatuses } from './applications';

export type DocumentType = components['schemas']['DocumentType'];

export const documentTypes: readonly DocumentType[] = [
  'formE',
  'secci',
  'loanAgreement',
  'assignmentAgreement',
  'termsAndConditions',
  'preContractExplanations',
  'instructionsToSolicitorsLetter',
  'solicitorLetter',
];

/**
 * The two document types only the provider's staff see (docs/decisions.md): the irrevocable letter
 * of instruction and the certificate of advice are the provider's correspondence with solicitors
 * (instructions to the client's solicitors to repay from the settlement; the independent
 * solicitor's confirmation to the provider), not documents the client or the lawyer reviews or
 * signs in the portal. The five contract documents and Form E stay visible to everyone in scope.
 */
export const staffOnlyDocumentTypes: readonly DocumentType[] = ['instructionsToSolicitorsLetter', 'solicitorLetter'];

export function visibleDocumentTypes(user: Pick<SessionUser, 'role'>): readonly DocumentType[] {
  return isStaff(user.role) ? documentTypes : documentTypes.filter((t) => !staffOnlyDocumentTypes.includes(t));
}

export function canSeeDocumentType(user: Pick<SessionUser, 'role'>, type: string): boolean {
  return (visibleDocumentTypes(user) as readonly string[]).includes(type);
}

/** The lawyer and the client add or remove Form E documents while the journey is editable. */
export const clientUploadStatuses = editableStatuses;
/**
 * Statuses in which staff may add or remove documents: the review state (submitted) and the prepare
 * state (providerAccepted, and esignPrepared while the 'Notify client' step is still ahead).
 */
export const staffUploadStatuses: readonly ApplicationStatus[] = ['submitted', 'providerAccepted', 'esignPrepared'];

/**
 * May this user add or remove a document of this type now? 403 for a role or type the user may
 * never change (the firm role, or a lawyer or client with a type other than Form E); 409
 * notEditable when the type is theirs but the application's status does not allow changes.
 */
export function fileChangeRefusal(user: Pick<SessionUser, 'role'>, status: string, type: string): 'forbidden' | 'notEditable' | undefined {
  if (isStaff(user.role)) return (staffUploadStatuses as readonly string[]).includes(status) ? undefined : 'notEditable';
  if (user.role === 'lawyer' || user.role === 'customer') {
    if (type !== 'formE') return 'forbidden';
    return (clientUploadStatuses as readonly string[]).includes(status) ? undefined : 'notEditable';
  }
  return 'forbidden';
}

export interface ScopedApplication {
  id: number;
  status: string;
  lawyerId: number;
  clientId: number;
  caseRef: string | null;
  loanAmountPence: number | null;
  startedAt: Date;
  updatedAt: Date;
  clientFirstName: string;
  clientLastName: string;
}

/**
 * The application if the user may see it, else undefined (the caller answers 404: an application
 * out of scope does not exist for that user). `lock` takes a row lock for the transaction, so
 * checks made under it (counts of files) hold until it commits.
 */
export async function findApplicationInScope(
  db: Database,
  user: Pick<SessionUser, 'role' | 'firmId' | 'lawyerId' | 'customerId'>,
  applicationId: number,
  options: { lock?: boolean } = {},
): Promise<ScopedApplication | undefined> {
  const query = db
    .select({
      id: applications.id,
      status: applications.status,
      lawyerId: applications.lawyerId,
      clientId: applications.clientId,
      caseRef: applications.caseRef,
      loanAmountPence: applications.loanAmountPence,
      startedAt: applications.startedAt,
      updatedAt: applications.updatedAt,
      clientFirstName: clients.firstName,
      clientLastName: clients.lastName,
    })
    .from(applications)
    .innerJoin(lawyers, eq(lawyers.id, applications.lawyerId))
    .innerJoin(clients, eq(clients.id, applications.clientId))
    .where(and(eq(applications.id, applicationId), applicationScope(user)))
    .limit(1);
  const [row] = options.lock ? await query.for('update', { of: applications }) : await query;
  return row;
}
