import type { ServiceContext } from '../context';
import { findApplication } from './find-application';
import { presentApplication, type ApplicationRecord } from './present-application';

/** GET /applications/{id}: one application the caller may see (404 otherwise). */
export async function getApplication({ db, actor, config }: ServiceContext, input: { id: number }): Promise<ApplicationRecord> {
  return presentApplication(db, actor, await findApplication(db, actor, input.id), config.reminders);
}
