import { type ServiceContext } from '../context';
import { type Paging } from '../../db/paging';
import { listLawyersOfFirm } from '../lawyers/list-lawyers-of-firm';
import { getFirm } from './get-firm';

/** The firm's lawyers, for staff and the firm's own admin. */
export async function listFirmLawyers(ctx: ServiceContext, { id, ...query }: { id: number } & Paging & { search?: string }) {
  await getFirm(ctx, { id });
  return listLawyersOfFirm(ctx, id, query);
}
