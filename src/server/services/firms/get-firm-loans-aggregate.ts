import { eq } from 'drizzle-orm';
import { lawyers } from '../../db/schema';
import { type ServiceContext } from '../context';
import { loansAggregate } from '../loans/get-loans-aggregate';
import { getFirm } from './get-firm';

/**
 * Loan totals of the firm (its lawyers' applications): credit offered, drawdowns that use credit,
 * how many loans, and the latest signing; the loans overview's one aggregate over the firm's loans.
 */
export async function getFirmLoansAggregate(ctx: ServiceContext, { id }: { id: number }) {
  await getFirm(ctx, { id });
  return loansAggregate(ctx.db, eq(lawyers.firmId, id));
}
