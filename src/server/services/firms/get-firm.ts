import { AppError } from '../../errors/app-error';
import { type ServiceContext } from '../context';
import { assertCan } from '../../policies/assert-can';
import * as firmPolicy from '../../policies/firms';
import { findFirm } from './firm-record';

/** One firm, for staff and the firm's own admin; anyone else (or a deleted firm) is 404. */
export async function getFirm({ db, actor: user }: ServiceContext, { id }: { id: number }) {
  assertCan(firmPolicy.can(user, 'read', { id }), 'notFound');
  const firm = await findFirm(db, id);
  if (!firm) throw AppError.notFound();
  return { ...firm, abilities: firmPolicy.firmAbilities(user, firm) };
}
