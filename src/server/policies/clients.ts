import type { SessionUser } from '../auth/sessions';
import { hasPermissions } from '../../shared/rules/permissions';

/**
 * Clients are seen through their applications: whoever sees one of a client's applications sees
 * the client (the one read rule of applications).
 */
export { scope } from './applications';

/**
 * What the caller may do with a client they see: change the details and send a password reset,
 * with the contract's crudClients (staff, firm admins, lawyers); a client's own reach is 404 anyway.
 */
export function clientAbilities(actor: Pick<SessionUser, 'role'>) {
  const manage = hasPermissions(actor.role, ['crudClients']);
  return { edit: manage, resetPassword: manage };
}
