import { eq, sql, type SQL } from 'drizzle-orm';
import type { SessionUser } from '../auth/sessions';
import { applications, lawyers } from '../db/schema';

type Actor = Pick<SessionUser, 'role' | 'firmId' | 'lawyerId' | 'customerId'>;

/**
 * Whose applications a caller may see (spec: root and admin all, a firm its lawyers', a lawyer
 * their own, a customer their own). A condition over `applications` joined to `lawyers`;
 * undefined means no restriction. Anything outside it answers 404, never 403: nobody learns
 * which ids exist. The one definition: lists, the scoped loader and the clients' query use it.
 */
export function scope(actor: Actor): SQL | undefined {
  switch (actor.role) {
    case 'root':
    case 'admin':
      return undefined;
    case 'firm':
      return actor.firmId ? eq(lawyers.firmId, actor.firmId) : sql`false`;
    case 'lawyer':
      return actor.lawyerId ? eq(applications.lawyerId, actor.lawyerId) : sql`false`;
    case 'customer':
      return actor.customerId ? eq(applications.clientId, actor.customerId) : sql`false`;
  }
}

/** What a caller may do to an application they can see. */
export type ApplicationAction = 'editJourney' | 'submit' | 'sign';

/**
 * Who may change an application's journey and submit it: its lawyer (lawyer role), its client
 * (customer role), or root. Others never get here for a save (the contract's updateApplication
 * permission), but the rule stands on its own. Which statuses allow it is the transitions' rule.
 */
export function can(actor: Actor, action: ApplicationAction, application: { lawyerId: number; clientId: number }): boolean {
  // Only the client signs their documents (spec section 6: "only the customer role may sign").
  if (action === 'sign') return actor.role === 'customer' && actor.customerId === application.clientId;
  if (actor.role === 'root') return true;
  if (actor.role === 'lawyer') return actor.lawyerId === application.lawyerId;
  if (actor.role === 'customer') return actor.customerId === application.clientId;
  return false;
}
