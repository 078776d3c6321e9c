import { AppError } from '../../errors/app-error';
import { type ServiceContext } from '../context';
import { findLawyer } from './lawyer-record';

/** One lawyer; another firm's lawyer (for a firm admin), or a deleted one, is 404. */
export async function getLawyer({ db, actor: user }: ServiceContext, { id }: { id: number }) {
  const lawyer = await findLawyer(db, user, id);
  if (!lawyer) throw AppError.notFound();
  return lawyer;
}
