import type { Role } from '../rules/permissions';
import type { Audience } from './required';

export type { Audience };

/**
 * Who fills the journey in the wizard (spec section 2): the lawyer their wizard, the client their own
 * form; every other role reads the details screen instead (null).
 */
export function wizardAudience(role: Role): Audience | null {
  return role === 'lawyer' ? 'lawyer' : role === 'customer' ? 'customer' : null;
}

/**
 * The form whose wording and rules apply to this caller: the client's own for the customer, the
 * lawyer's for everyone else (root submits with the lawyer's form; staff read the lawyer's wording).
 */
export function audienceOf(role: Role): Audience {
  return wizardAudience(role) ?? 'lawyer';
}
