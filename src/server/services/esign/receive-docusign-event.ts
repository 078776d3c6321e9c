import { and, eq } from 'drizzle-orm';
import { applications, clients, envelopes } from '../../db/schema';
import { envelopeProvider } from '../../esign';
import { sha256Hex } from '../../esign/builtin';
import { connectSignatureValid, isConnectEvent, readConnectMessage, type ConnectMessage } from '../../esign/docusign/connect';
import { AppError } from '../../errors/app-error';
import type { PublicContext } from '../context';
import { envelopeDocumentsOf, envelopeSignable, type EnvelopeRow } from './envelope-record';
import { endEnvelope } from './end-envelope';
import { eventSeen, recordProviderEvent, type ConnectOutcome, type ProviderEventKey } from './provider-events';
import { recordSignedEnvelope } from './record-signed-envelope';

/**
 * POST /docusign/connect: an event DocuSign Connect reports of one of the portal's envelopes
 * (docs/decisions.md 526-531). The signature over the raw body comes first: without a valid
 * X-DocuSign-Signature-N, 401 and nothing is read further. A replay (the same envelope, event and
 * generatedDateTime as an event recorded before) answers `replayed` and changes nothing. Completed:
 * the signed copies are fetched from DocuSign (503 while they cannot be: Connect sends it again)
 * and recorded through the same completion as the built-in provider's, for a contract or a variation. Declined and voided end the
 * envelope (end-envelope.ts).
 */
export async function receiveDocusignEvent(
  ctx: PublicContext,
  input: { rawBody: Buffer | undefined; headers: Record<string, string | string[] | undefined>; body: unknown },
): Promise<ConnectOutcome> {
  const settings = ctx.config.esign.docusign;
  if (!settings) throw AppError.notFound();
  if (!input.rawBody || !connectSignatureValid(input.rawBody, input.headers, settings.connectHmacKeys))
    throw AppError.unauthorized();

  const message = readConnectMessage(input.body);
  if (!message) {
    ctx.logError('a DocuSign Connect message that is not JSON SIM was ignored: set the Connect format to JSON SIM', undefined);
    return { outcome: 'ignored' };
  }
  if (!isConnectEvent(message.event)) return { outcome: 'ignored' };
  const [envelope] = await ctx.db
    .select()
    .from(envelopes)
    .where(and(eq(envelopes.id, message.data.envelopeId), eq(envelopes.provider, 'docusign')));
  // Not one of the portal's (another integration's envelope on the same account): not ours to act on.
  if (!envelope) return { outcome: 'ignored' };

  const key: ProviderEventKey = {
    provider: 'docusign',
    envelopeId: envelope.id,
    event: message.event,
    generatedAt: message.generatedDateTime ?? '',
    bodySha256: sha256Hex(input.rawBody),
  };
  if (await eventSeen(ctx.db, key)) return { outcome: 'replayed' };
  if (message.event === 'envelope-completed') return completeFromDocusign(ctx, envelope, message, key);
  return endEnvelope(ctx, envelope, key, {
    status: message.event === 'envelope-declined' ? 'declined' : 'voided',
    reason:
      message.event === 'envelope-declined'
        ? message.data.envelopeSummary?.recipients?.signers?.find((signer) => signer.declinedReason)?.declinedReason
        : message.data.envelopeSummary?.voidedReason,
  });
}

/** DocuSign's time of completion, or now when the message does not carry a readable one. */
function completedAt(message: ConnectMessage): Date {
  const given = message.data.envelopeSummary?.completedDateTime;
  const time = given ? new Date(given) : undefined;
  return time && !Number.isNaN(time.getTime()) ? time : new Date();
}

/**
 * envelope-completed (docs/decisions.md 528): the signed copies are DocuSign's, downloaded as they
 * are (DocuSign's own signature on them; no PAdES level of the portal's, nothing owed a
 * time-stamp), with the certificate of completion; recordSignedEnvelope stores them and finishes
 * the envelope once, under its locks (a contract: the application completed and its loan created;
 * a variation: the loan's signed facility raised), recording the event in the same transaction. Downloading happens before, with no lock held.
 */
async function completeFromDocusign(
  ctx: PublicContext,
  envelope: EnvelopeRow,
  message: ConnectMessage,
  key: ProviderEventKey,
): Promise<ConnectOutcome> {
  if (envelope.status === 'signed') return { outcome: 'replayed' };
  const [application] = await ctx.db
    .select({ status: applications.status, clientUserId: clients.userId })
    .from(applications)
    .innerJoin(clients, eq(clients.id, applications.clientId))
    .where(eq(applications.id, envelope.applicationId));
  const signable = envelope.status === 'created' || envelope.status === 'notified';
  if (!application || !signable || !(await envelopeSignable(ctx.db, envelope, application))) {
    // The same completion, sent twice at once, may have been recorded between the two reads above.
    if (await signedMeanwhile(ctx, envelope.id)) return { outcome: 'replayed' };
    ctx.logError('DocuSign reports an envelope completed that the portal no longer expects to be signed', {
      envelopeId: envelope.id,
      envelopeStatus: envelope.status,
      applicationStatus: application?.status,
    });
    return { outcome: 'ignored' };
  }

  const documents = await envelopeDocumentsOf(ctx.db, envelope.id);
  let copies;
  try {
    const provider = envelopeProvider(ctx.db, ctx.config, 'docusign');
    if (provider.signsAt !== 'provider') throw new Error('DocuSign is a remote provider');
    copies = await provider.signedCopies({ envelopeId: envelope.id, count: documents.length });
  } catch (error) {
    // Connect sends the event again (the envelope subscribes with requireAcknowledgment).
    ctx.logError(
      `the signed copies of DocuSign envelope ${envelope.id} could not be had; Connect will send the event again`,
      error,
    );
    throw new AppError(503, 'esignProviderUnavailable');
  }
  try {
    const { recorded } = await recordSignedEnvelope(ctx, {
      envelopeId: envelope.id,
      documents,
      copies: copies.documents.map((pdf) => ({ pdf, level: null, timestampPending: false })),
      certificate: copies.certificate,
      signer: { userId: application.clientUserId, address: null, device: null, signedAt: completedAt(message) },
      actor: null,
      detail: { provider: 'docusign', connectEvent: key.event, generatedDateTime: key.generatedAt },
      underLock: async (tx) => {
        await recordProviderEvent(tx, key);
      },
    });
    return { outcome: recorded ? 'recorded' : 'replayed' };
  } catch (error) {
    // The application moved on (withdrawn, say) between the first look and the locks.
    if (error instanceof AppError && error.statusCode === 409) {
      if (await signedMeanwhile(ctx, envelope.id)) return { outcome: 'replayed' };
      ctx.logError('DocuSign reports an envelope completed that the portal no longer expects to be signed', {
        envelopeId: envelope.id,
      });
      return { outcome: 'ignored' };
    }
    throw error;
  }
}

/** Whether the envelope is signed now: a completion that raced this one was recorded first. */
async function signedMeanwhile(ctx: PublicContext, envelopeId: string): Promise<boolean> {
  const [now] = await ctx.db.select({ status: envelopes.status }).from(envelopes).where(eq(envelopes.id, envelopeId));
  return now?.status === 'signed';
}
