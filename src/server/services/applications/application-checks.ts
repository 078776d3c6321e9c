import type { SessionUser } from '../../auth/sessions';
import { AppError } from '../../http/app-error';
import * as applicationPolicy from '../../policies/applications';
import { assertCan } from '../../policies/assert-can';
import { isEditableStatus } from '../../../shared/rules/transitions';

type Application = { status: string; lawyerId: number; clientId: number };

/** 409 notEditable once the application is past the editable statuses; made before the lock and again under it. */
export function assertEditable(application: Pick<Application, 'status'>): void {
  if (!isEditableStatus(application.status)) throw new AppError(409, 'notEditable');
}

/** 403 unless the caller is the application's lawyer, its client or root (the policy). */
export function assertMayEditJourney(actor: SessionUser, application: Application): void {
  assertCan(applicationPolicy.can(actor, 'editJourney', application));
}
