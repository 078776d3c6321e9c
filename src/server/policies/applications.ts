import { eq, sql, type SQL } from 'drizzle-orm';
import type { SessionUser } from '../auth/sessions';
import { applications, lawyers } from '../db/schema';
import { journeySteps, type JourneyStep } from '../../shared/journey/steps';
import type { ApplicationStatus } from '../../shared/rules/statuses';

/**
 * Whose applications a caller may see (spec: root and admin all, a firm its lawyers', a lawyer
 * their own, a customer their own). A condition over `applications` joined to `lawyers`;
 * undefined means no restriction. Anything outside it answers 404, never 403: nobody learns
 * which ids exist.
 */
export function applicationScope(user: Pick<SessionUser, 'role' | 'firmId' | 'lawyerId' | 'customerId'>): SQL | undefined {
  switch (user.role) {
    case 'root':
    case 'admin':
      return undefined;
    case 'firm':
      return user.firmId ? eq(lawyers.firmId, user.firmId) : sql`false`;
    case 'lawyer':
      return user.lawyerId ? eq(applications.lawyerId, user.lawyerId) : sql`false`;
    case 'customer':
      return user.customerId ? eq(applications.clientId, user.customerId) : sql`false`;
  }
}

/** The statuses in which the journey can still be changed. */
export const editableStatuses: readonly ApplicationStatus[] = ['incomplete', 'created'];

export function isEditable(status: string): boolean {
  return (editableStatuses as readonly string[]).includes(status);
}

/**
 * Who may change an application's journey: its lawyer (lawyer role), its client (customer role),
 * or root. Others never get here (the contract's updateApplication permission), but the rule
 * stands on its own.
 */
export function mayEditJourney(user: SessionUser, application: { lawyerId: number; clientId: number }): boolean {
  if (user.role === 'root') return true;
  if (user.role === 'lawyer') return user.lawyerId === application.lawyerId;
  if (user.role === 'customer') return user.customerId === application.clientId;
  return false;
}

/** The wording and rules a caller's form uses: the client's own form, or the lawyer's. */
export function audienceOf(user: SessionUser): 'lawyer' | 'customer' {
  return user.role === 'customer' ? 'customer' : 'lawyer';
}

/**
 * The steps of the submitter's own form that must all be valid to submit (docs/decisions.md:
 * the lawyer's five; the client's six, with the client confirmation).
 */
export function stepsToSubmit(audience: 'lawyer' | 'customer'): readonly JourneyStep[] {
  return audience === 'customer' ? journeySteps : journeySteps.filter((s) => s !== 'client');
}

/** A status change this issue builds: who may make it, and from which statuses. */
interface Transition {
  roles: readonly SessionUser['role'][];
  from: readonly ApplicationStatus[];
}

/** Transitions built so far; the provider's review, signing and the rest come with later issues. */
export const transitions: Partial<Record<ApplicationStatus, Transition>> = {
  submitted: { roles: ['root', 'lawyer', 'customer'], from: ['incomplete', 'created'] },
};

/** Statuses no call ever moves an application *to* (they are where an application starts). */
export const neverTargets: readonly ApplicationStatus[] = ['incomplete', 'created'];
