import type { ServiceContext } from '../context';
import { findLoan } from './find-loan';
import { presentLoan } from './present-loan';

/** One loan the caller may see (404 otherwise), with what they may do with it. */
export async function getLoan({ db, actor }: ServiceContext, { id }: { id: number }) {
  return presentLoan(actor, await findLoan(db, actor, id));
}
