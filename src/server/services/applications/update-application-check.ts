import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import { applications } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as applicationPolicy from '../../policies/applications';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { liveFileCount } from '../files/file-record';
import { certificateOfAdviceType } from '../../../shared/rules/document-types';
import { checkOpenIn, type ApplicationCheck } from '../../../shared/rules/review';
import { findApplication } from './find-application';
import { presentApplication, type ApplicationRecord } from './present-application';

/** 409 checkClosed outside the check's state (the three in review, the certificate in prepare). */
function assertCheckOpen(application: { status: string }, check: ApplicationCheck): void {
  if (!checkOpenIn(check, application.status)) throw new AppError(409, 'checkClosed');
}

/** 400 certificateMissing: 'Certificate of independent advice uploaded' is ticked only with one uploaded. */
async function assertCertificate(db: Database, applicationId: number, check: ApplicationCheck, status: boolean) {
  if (check === 'independentAdvice' && status && (await liveFileCount(db, applicationId, certificateOfAdviceType)) === 0)
    throw new AppError(400, 'certificateMissing');
}

/**
 * POST /applications/checks: staff tick or untick one review check (docs/decisions.md 271). 404 out
 * of scope, 403 for anyone but staff, 409 `checkClosed` outside the check's state, 400
 * `certificateMissing` to tick the certificate without a Certificate of Advice uploaded; made again
 * under the application's row lock. A change is audited; setting a check to what it already is
 * changes nothing and records nothing.
 */
export async function updateApplicationCheck(
  { db, actor, config }: ServiceContext,
  input: { applicationId: number; check: ApplicationCheck; status: boolean },
): Promise<ApplicationRecord> {
  const { applicationId, check, status } = input;
  const found = await findApplication(db, actor, applicationId);
  assertCan(applicationPolicy.can(actor, 'review', found));
  assertCheckOpen(found, check);
  await assertCertificate(db, applicationId, check, status);
  await db.transaction(async (tx) => {
    const application = await findApplication(tx, actor, applicationId, { forUpdate: true });
    assertCheckOpen(application, check);
    await assertCertificate(tx, applicationId, check, status);
    if (application[check] === status) return;
    await tx
      .update(applications)
      .set({ [check]: status, updatedAt: sql`now()` })
      .where(eq(applications.id, application.id));
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'application',
      entityId: application.id,
      action: 'checkChanged',
      from: { [check]: application[check] },
      to: { [check]: status },
    });
  });
  return presentApplication(db, actor, await findApplication(db, actor, applicationId), config.reminders);
}
