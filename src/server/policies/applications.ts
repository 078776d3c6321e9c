import { eq, sql, type SQL } from 'drizzle-orm';
import { applications } from '../db/schema';
import { isStaff } from '../../shared/rules/permissions';
import { ofFirmLawyers } from './firm-lawyers';
import type { ScopeActor } from './scope-values';

/**
 * Whose applications a caller may see (spec: root and admin all, a firm its lawyers', a lawyer
 * their own, a customer their own). A condition over `applications` alone;
 * undefined means no restriction. Anything outside it answers 404, never 403: nobody learns
 * which ids exist. The one definition: lists, the scoped loader and the clients' query use it.
 */
export function scope(actor: ScopeActor): SQL | undefined {
  switch (actor.role) {
    case 'root':
    case 'admin':
      return undefined;
    case 'firm':
      return actor.firmId ? ofFirmLawyers(applications.lawyerId, actor.firmId) : sql`false`;
    case 'lawyer':
      return actor.lawyerId ? eq(applications.lawyerId, actor.lawyerId) : sql`false`;
    case 'customer':
      return actor.customerId ? eq(applications.clientId, actor.customerId) : sql`false`;
  }
}

/**
 * What a caller may do to an application they can see: change its journey and submit it; review it
 * (staff: the checks, accept or reject, the draft loan amount, the documents' states, the envelope,
 * the emails); withdraw ('i no longer wish to proceed') and sign (its own client); correct the
 * client's email and invite them again before they join (decision 344); download the signed
 * documents (decision 449).
 */
export type ApplicationAction =
  'editJourney' | 'submit' | 'review' | 'withdraw' | 'sign' | 'inviteClient' | 'readSignedDocuments';

/**
 * Who may: the journey and the submit are its lawyer's (lawyer role), its client's (customer role)
 * or root's; the review is the provider's staff's (root, admin); withdrawing and signing are its own
 * client's only. Others never get here for a save (the contract's permissions), but the rule stands
 * on its own. Which statuses allow it is the shared rules' question (transitions, review).
 */
export function can(actor: ScopeActor, action: ApplicationAction, application: { lawyerId: number; clientId: number }): boolean {
  if (action === 'review') return isStaff(actor.role);
  if (action === 'withdraw' || action === 'sign')
    return actor.role === 'customer' && actor.customerId !== null && actor.customerId === application.clientId;
  if (actor.role === 'root') return true;
  // The signed documents: staff, its lawyer and its client (docs/decisions.md 449, replacing 014).
  if (action === 'readSignedDocuments')
    return (
      actor.role === 'admin' ||
      (actor.role === 'lawyer' && actor.lawyerId === application.lawyerId) ||
      (actor.role === 'customer' && actor.customerId === application.clientId)
    );
  // Correcting the client's email and inviting them again: their lawyer and staff (decision 344).
  if (action === 'inviteClient')
    return actor.role === 'admin' || (actor.role === 'lawyer' && actor.lawyerId === application.lawyerId);
  if (actor.role === 'lawyer') return actor.lawyerId === application.lawyerId;
  if (actor.role === 'customer') return actor.customerId === application.clientId;
  return false;
}
