import { type ServiceContext } from '../context';
import { type Paging } from '../../db/paging';
import { listLawyers } from './list-lawyers';

/** The lawyers list of one firm (the firm page); the caller's right to the firm is checked first. */
export async function listLawyersOfFirm(ctx: ServiceContext, firmId: number, query: Paging & { search?: string }) {
  return listLawyers(ctx, { ...query, firmId });
}
