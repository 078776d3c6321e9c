import type { SessionUser } from '../auth/sessions';
import { documentTypes, isStaffOnlyDocumentType, type DocumentType } from '../../shared/rules/document-types';
import { isStaff } from '../../shared/rules/permissions';
import { isStaffWorkStatus } from '../../shared/rules/review';
import { isEditableStatus } from '../../shared/rules/transitions';

export type { DocumentType };
export { documentTypes };
type Actor = Pick<SessionUser, 'role'>;

/** The read scope of documents: the types this caller sees (of the applications in their scope). */
export function visibleDocumentTypes(actor: Actor): readonly DocumentType[] {
  return isStaff(actor.role) ? documentTypes : documentTypes.filter((t) => !isStaffOnlyDocumentType(t));
}

export function canSeeDocumentType(actor: Actor, type: string): boolean {
  return (visibleDocumentTypes(actor) as readonly string[]).includes(type);
}

/**
 * May this caller ever add or remove a document of this type (403 otherwise)? Staff any type, the
 * lawyer and the client Form E only, the firm role never.
 */
export function can(actor: Actor, _action: 'changeDocument', document: { type: string }): boolean {
  if (isStaff(actor.role)) return true;
  return (actor.role === 'lawyer' || actor.role === 'customer') && document.type === 'formE';
}

/**
 * Does the application's status allow this caller's changes to its documents now (409 notEditable
 * otherwise)? The lawyer and the client while the journey is editable; staff in the review and
 * prepare states (submitted; providerAccepted until the envelope is prepared: docs/decisions.md 272).
 */
export function documentsChangeableIn(actor: Actor, status: string): boolean {
  return isStaff(actor.role) ? isStaffWorkStatus(status) : isEditableStatus(status);
}

/** The document types this caller may add or remove now, on an application in this status. */
export function changeableDocumentTypes(actor: Actor, status: string): DocumentType[] {
  return documentsChangeableIn(actor, status)
    ? visibleDocumentTypes(actor).filter((type) => can(actor, 'changeDocument', { type }))
    : [];
}
