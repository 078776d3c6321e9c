import { and, eq, inArray, sql } from 'drizzle-orm';
import { applications, envelopes } from '../../db/schema';
import { signingProvider } from '../../esign';
import { AppError } from '../../http/app-error';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { findApplication } from '../applications/find-application';
import { presentApplication, type ApplicationRecord } from '../applications/present-application';
import { envelopeDocumentTypes } from '../../../shared/rules/document-types';
import { mayPrepareEnvelope } from '../../../shared/rules/review';
import { applicationTransitions, roleMayTransition, transitionAllowedFrom } from '../../../shared/rules/transitions';
import { recordEnvelopeEvent } from './envelope-record';
import { generateContractDocuments } from './generate-contract-documents';

/** The shared rule (mayPrepareEnvelope, decision 274), with its refusals told apart. */
function assertMayPrepare(application: { status: string; independentAdvice: boolean }): void {
  if (mayPrepareEnvelope(application)) return;
  if (!transitionAllowedFrom(applicationTransitions, application.status, 'esignPrepared')) throw new AppError(409, 'conflict');
  throw AppError.validation({ independentAdvice: 'required' });
}

/**
 * POST /docusign/init: staff prepare the signature envelope ('prepare docusign'). The contract set is
 * made again from the application (so the amounts are current); the envelope holds the documents the
 * client signs (envelopeDocumentTypes). Then, under the application's row
 * lock, earlier open envelopes are voided, the provider makes the new one with each document's
 * SHA-256, and the application moves to esignPrepared with its envelopeId. A failure to make the
 * documents is the spec's `envelopeFailed` (docs/decisions.md: 283).
 */
export async function initEnvelope(
  ctx: ServiceContext,
  input: { applicationId: number; state: 'esignPrepared' },
): Promise<ApplicationRecord> {
  const { db, actor, config, storage } = ctx;
  const found = await findApplication(db, actor, input.applicationId);
  assertCan(roleMayTransition(applicationTransitions, actor.role, 'esignPrepared'));
  assertMayPrepare(found);

  let documents;
  try {
    const made = await generateContractDocuments(db, storage, config, found.id, { uploadedBy: actor.id });
    // The client signs five; the letter of instruction is made with them but is staff's (decision 287).
    documents = made.filter((document) => envelopeDocumentTypes.includes(document.type));
  } catch (error) {
    if (error instanceof AppError && error.statusCode !== 503) throw error;
    ctx.logError('contract documents could not be made', error);
    throw new AppError(400, 'envelopeFailed');
  }

  const provider = signingProvider(db, config);
  await db.transaction(async (tx) => {
    const application = await findApplication(tx, actor, input.applicationId, { forUpdate: true });
    assertMayPrepare(application);
    const voided = await tx
      .update(envelopes)
      .set({ status: 'voided', linkTokenHash: null, codeHash: null })
      .where(and(eq(envelopes.applicationId, application.id), inArray(envelopes.status, ['created', 'notified'])))
      .returning({ id: envelopes.id });
    for (const { id } of voided) await recordEnvelopeEvent(tx, { envelopeId: id, type: 'voided', actor, origin: ctx.origin });
    const { envelopeId } = await provider.createEnvelope(tx, { applicationId: application.id, createdBy: actor.id, documents });
    await tx
      .update(applications)
      .set({ status: 'esignPrepared', envelopeId, envelopeUrl: null, updatedAt: sql`now()` })
      .where(eq(applications.id, application.id));
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'application',
      entityId: application.id,
      action: 'envelopePrepared',
      from: { status: application.status, envelopeId: application.envelopeId },
      to: {
        status: 'esignPrepared',
        envelopeId,
        provider: provider.name,
        documents: documents.map((d) => ({ type: d.type, fileId: d.fileId, sha256: d.sha256 })),
      },
    });
  });
  return presentApplication(db, actor, await findApplication(db, actor, input.applicationId));
}
