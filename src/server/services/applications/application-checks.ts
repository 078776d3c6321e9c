import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import * as applicationPolicy from '../../policies/applications';
import { assertCan } from '../../policies/assert-can';
import { isEditableStatus } from '../../../shared/rules/transitions';
import { statusRefusal } from './status-refusal';

type Application = { id: number; status: string; lawyerId: number; clientId: number };

/**
 * 409 notEditable once the application is past the editable statuses, saying who moved it on and
 * when; made before the lock and again under it.
 */
export async function assertEditable(db: Database, actor: SessionUser, application: Pick<Application, 'id' | 'status'>) {
  if (!isEditableStatus(application.status)) throw await statusRefusal(db, actor, application, 'notEditable');
}

/** 403 unless the caller is the application's lawyer, its client or root (the policy). */
export function assertMayEditJourney(actor: SessionUser, application: Application): void {
  assertCan(applicationPolicy.can(actor, 'editJourney', application));
}
