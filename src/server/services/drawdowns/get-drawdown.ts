import type { ServiceContext } from '../context';
import { findDrawdown } from './find-drawdown';
import { presentDrawdown } from './present-drawdown';

/** One drawdown the caller may see (404 otherwise), with what they may do with it. */
export async function getDrawdown({ db, actor, config }: ServiceContext, { id }: { id: number }) {
  return presentDrawdown(actor, await findDrawdown(db, actor, id), config.reminders);
}
