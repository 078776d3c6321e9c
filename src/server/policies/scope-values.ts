import type { SessionUser } from '../auth/sessions';

/** What the scopes read of their caller (policies/applications.ts, services/loans/kept-lawyer.ts). */
export type ScopeActor = Pick<SessionUser, 'role' | 'firmId' | 'lawyerId' | 'customerId'>;

/** A caller's ids as a statement's values (db/shaped-statements.ts); an id it lacks is absent. */
export interface ScopeValues {
  firmId?: number;
  lawyerId?: number;
  customerId?: number;
}

export const scopeValuesOf = (actor: ScopeActor): ScopeValues => ({
  firmId: actor.firmId || undefined,
  lawyerId: actor.lawyerId || undefined,
  customerId: actor.customerId || undefined,
});

/** The caller a shaped statement's scope is written for: its role, and its ids as the statement's values. */
export const scopeActorOf = (role: ScopeActor['role'], values: ScopeValues): ScopeActor => ({
  role,
  firmId: values.firmId ?? null,
  lawyerId: values.lawyerId ?? null,
  customerId: values.customerId ?? null,
});
