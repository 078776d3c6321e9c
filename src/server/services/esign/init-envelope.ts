import { and, eq, inArray, sql } from 'drizzle-orm';
import { applications, envelopes } from '../../db/schema';
import { signingProvider, type RemoteSigningProvider } from '../../esign';
import { insertEnvelope } from '../../esign/envelope-rows';
import type { RemoteSigner } from '../../esign/provider';
import { AppError } from '../../errors/app-error';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { findApplication, type ApplicationRow } from '../applications/find-application';
import { presentApplication, type ApplicationRecord } from '../applications/present-application';
import { envelopeDocumentTypes } from '../../../shared/rules/document-types';
import { mayPrepareEnvelope } from '../../../shared/rules/review';
import { applicationTransitions, roleMayTransition, transitionAllowedFrom } from '../../../shared/rules/transitions';
import { recordEnvelopeEvent } from './envelope-record';
import { generateContractDocuments } from './generate-contract-documents';
import { providerFailure } from './provider-failure';
import { remoteSignerOf, voidAtProvider } from './remote-envelopes';

/** The shared rule (mayPrepareEnvelope, decision 274), with its refusals told apart. */
function assertMayPrepare(application: { status: string; independentAdvice: boolean }): void {
  if (mayPrepareEnvelope(application)) return;
  if (!transitionAllowedFrom(applicationTransitions, application.status, 'esignPrepared')) throw new AppError(409, 'conflict');
  throw AppError.validation({ independentAdvice: 'required' });
}

/** A remote provider's envelope, sent before anything is recorded: its id and the signer as sent. */
interface SentEnvelope {
  envelopeId: string;
  signer: RemoteSigner;
}

/**
 * Sends the documents to a remote provider (DocuSign) outside any transaction, so no lock waits on
 * the network (docs/decisions.md 523). Its failure is the caller's: 503 while DocuSign does not
 * answer, the spec's `envelopeFailed` when it refuses; nothing is recorded either way.
 */
async function sendToProvider(
  ctx: ServiceContext,
  provider: RemoteSigningProvider,
  application: ApplicationRow,
  documents: readonly { title: string; pdf: Uint8Array }[],
): Promise<SentEnvelope> {
  const signer = remoteSignerOf(application);
  try {
    const { envelopeId } = await provider.sendEnvelope({ documents, signer });
    return { envelopeId, signer };
  } catch (error) {
    throw providerFailure(ctx, error, `the envelope of application ${application.id} was not sent`, 'envelopeFailed');
  }
}

/**
 * POST /docusign/init: staff prepare the signature envelope ('prepare docusign'). The contract set is
 * made again from the application (so the amounts are current); the envelope holds the documents the
 * client signs (envelopeDocumentTypes). With DocuSign the envelope is sent to DocuSign first. Then,
 * under the application's row lock, earlier open envelopes are voided, the envelope is recorded with
 * each document's SHA-256, and the application moves to esignPrepared with its envelopeId. A failure
 * to make the documents is the spec's `envelopeFailed` (docs/decisions.md: 283), a PDF job past its time
 * 503 `pdfTimeout` (decision 596); a DocuSign envelope
 * that ends up not recorded is voided at DocuSign again.
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
    // Our own answers pass as they are: a PDF job past its time or a store not answering is 503, a
    // moment's trouble the client tries again, not documents that cannot be made.
    if (error instanceof AppError) throw error;
    ctx.logError('contract documents could not be made', error);
    throw new AppError(400, 'envelopeFailed');
  }

  const provider = signingProvider(db, config);
  const sent = provider.signsAt === 'provider' ? await sendToProvider(ctx, provider, found, documents) : undefined;
  let recorded = false;
  let voided: { id: string; provider: string }[] = [];
  try {
    await db.transaction(async (tx) => {
      const application = await findApplication(tx, actor, input.applicationId, { forUpdate: true });
      assertMayPrepare(application);
      voided = await tx
        .update(envelopes)
        .set({ status: 'voided', linkTokenHash: null, codeHash: null })
        .where(and(eq(envelopes.applicationId, application.id), inArray(envelopes.status, ['created', 'notified'])))
        .returning({ id: envelopes.id, provider: envelopes.provider });
      for (const { id } of voided) await recordEnvelopeEvent(tx, { envelopeId: id, type: 'voided', actor, origin: ctx.origin });
      const made = { applicationId: application.id, createdBy: actor.id, documents };
      let envelopeId: string;
      if (sent) {
        envelopeId = sent.envelopeId;
        await insertEnvelope(tx, { ...made, id: envelopeId, provider: provider.name, remoteSigner: sent.signer });
      } else if (provider.signsAt === 'portal') {
        ({ envelopeId } = await provider.createEnvelope(tx, made));
      } else throw new Error('a remote provider’s envelope is sent before it is recorded');
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
    recorded = true;
  } finally {
    if (sent && !recorded) await voidAtProvider(ctx, [sent.envelopeId], 'The portal did not record this envelope.');
  }
  const remote = voided.filter((envelope) => envelope.provider !== 'builtin').map((envelope) => envelope.id);
  if (remote.length > 0) await voidAtProvider(ctx, remote, 'The documents were prepared again.');
  return presentApplication(db, actor, await findApplication(db, actor, input.applicationId), config.reminders);
}
