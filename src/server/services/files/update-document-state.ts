import { and, eq, sql } from 'drizzle-orm';
import { documentReviews } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as applicationPolicy from '../../policies/applications';
import { assertCan } from '../../policies/assert-can';
import { canSeeDocumentType } from '../../policies/files';
import { findApplication } from '../applications/find-application';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import type { components } from '../../../shared/api/schema';
import type { DocumentType } from '../../../shared/rules/document-types';
import { isStaffWorkStatus } from '../../../shared/rules/review';
import { documentEntry, type ApplicationDocument } from './list-documents';

type DocumentState = components['schemas']['DocumentState'];

function assertReviewOpen(application: { status: string }): void {
  if (!isStaffWorkStatus(application.status)) throw new AppError(409, 'notEditable');
}

/**
 * POST /applications/docs/state: staff set the review state of one document type (docs/decisions.md
 * 278), in the review and prepare states (409 `notEditable` otherwise), under the application's row
 * lock; audited. Answers the document's entry as GET /applications/{id}/docs lists it.
 */
export async function updateDocumentState(
  { db, actor }: ServiceContext,
  input: { applicationId: number; type: DocumentType; state: DocumentState },
): Promise<ApplicationDocument> {
  const { applicationId, type, state } = input;
  const found = await findApplication(db, actor, applicationId);
  assertCan(applicationPolicy.can(actor, 'review', found));
  if (!canSeeDocumentType(actor, type)) throw AppError.notFound();
  assertReviewOpen(found);
  await db.transaction(async (tx) => {
    const application = await findApplication(tx, actor, applicationId, { forUpdate: true });
    assertReviewOpen(application);
    const [before] = await tx
      .select({ state: documentReviews.state })
      .from(documentReviews)
      .where(and(eq(documentReviews.applicationId, applicationId), eq(documentReviews.type, type)));
    if (before?.state === state) return;
    await tx
      .insert(documentReviews)
      .values({ applicationId, type, state, updatedBy: actor.id })
      .onConflictDoUpdate({
        target: [documentReviews.applicationId, documentReviews.type],
        set: { state, updatedBy: actor.id, updatedAt: sql`now()` },
      });
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'application',
      entityId: applicationId,
      action: 'documentStateChanged',
      from: { type, state: before?.state ?? null },
      to: { type, state },
    });
  });
  return documentEntry(db, actor, applicationId, type);
}
