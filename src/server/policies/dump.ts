import type { SessionUser } from '../auth/sessions';
import { isStaff } from '../../shared/rules/permissions';

/**
 * The database extract is the provider's staff's only (spec: the admin's 'extract database'). It
 * holds every record of every firm and client, so nothing narrower than staff may have it; the
 * contract refuses others first (x-roles), and this is asked again when the link is opened.
 */
export function can(actor: Pick<SessionUser, 'role'>, _action: 'extract'): boolean {
  return isStaff(actor.role);
}
