import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { envelopeDocuments, envelopes, files } from '../../db/schema';
import { signingProvider, type RemoteSigningProvider } from '../../esign';
import { insertEnvelope } from '../../esign/envelope-rows';
import type { RemoteSigner } from '../../esign/provider';
import { sha256Hex } from '../../esign/builtin';
import { newFileKey } from '../../files/storage';
import { AppError } from '../../errors/app-error';
import { loadContractData } from '../../pdf/contract/contract-data';
import { runPdfJob } from '../../pdf/render-in-worker';
import type { ServiceContext } from '../context';
import { findApplication } from '../applications/find-application';
import { contractDocumentTitle } from '../../../shared/rules/document-types';
import { formatMoney } from '../../../shared/rules/formats';
import { loanReference } from '../../../shared/rules/loan-reference';
import { toPounds } from '../../../shared/rules/money';
import { recordEnvelopeEvent } from './envelope-record';
import { providerFailure } from './provider-failure';
import { remoteSignerOf, voidAtProvider } from './remote-envelopes';

/** A variation sent to a remote provider (DocuSign) before anything is recorded: its id and the signer as sent. */
export interface SentVariation {
  envelopeId: string;
  provider: RemoteSigningProvider['name'];
  signer: RemoteSigner;
}

/**
 * Sends the variation's agreement to the configured provider when it signs on its own pages
 * (DocuSign: docs/decisions.md, 536), as 'prepare docusign' sends the contract set: outside any
 * transaction, so no lock waits on the network, with the application's client as the embedded
 * signer. Nothing is sent for the built-in provider (its envelope is made under the lock). DocuSign's
 * silence is 503 `esignProviderUnavailable`, its refusal the spec's `envelopeFailed`; nothing is
 * recorded either way (the caller removes the stored agreement).
 */
export async function sendVariation(
  ctx: ServiceContext,
  loan: { id: number; applicationId: number },
  document: VariationDocument,
): Promise<SentVariation | undefined> {
  const provider = signingProvider(ctx.db, ctx.config);
  if (provider.signsAt === 'portal') return undefined;
  const signer = remoteSignerOf(await findApplication(ctx.db, ctx.actor, loan.applicationId));
  try {
    const { envelopeId } = await provider.sendEnvelope({ documents: [{ title: document.title, pdf: document.pdf }], signer });
    return { envelopeId, provider: provider.name, signer };
  } catch (error) {
    throw providerFailure(ctx, error, `the variation of loan ${loan.id} was not sent`, 'envelopeFailed');
  }
}

/** Voids at DocuSign the variations the portal voided (a newer raise, a lowering, the loan's end), after the change is committed. */
export async function voidRemoteVariations(
  ctx: Pick<ServiceContext, 'db' | 'config' | 'logError'>,
  voided: readonly VoidedEnvelope[],
): Promise<void> {
  const remote = voided.filter((envelope) => envelope.provider !== 'builtin').map((envelope) => envelope.id);
  if (remote.length > 0) await voidAtProvider(ctx, remote, 'The variation was withdrawn by the portal.');
}

/** An envelope voided by the portal, and the provider that made it. */
export interface VoidedEnvelope {
  id: string;
  provider: string;
}

/** A variation's Credit Agreement, laid out and stored, not yet recorded (the transaction does that). */
export interface VariationDocument {
  key: string;
  /** The agreement's bytes as stored: what a remote provider is sent. */
  pdf: Uint8Array;
  title: string;
  fileName: string;
  size: number;
  sha256: string;
  amountPence: number;
  /** The signed facility the agreement says it replaces: the loan's must still be this under the lock. */
  previousAmountPence: number;
}

/**
 * Lays out and stores the new Credit Agreement of a loan's variation (docs/decisions.md, 507): the
 * application's contract data with the new facility, naming the loan and the facility it replaces.
 * Made before the loan's lock is taken (a PDF takes a while); the caller records it in its
 * transaction, or removes the bytes when it does not. A failure to make it is the spec's
 * `envelopeFailed`, as when the application's envelope is prepared (a PDF timeout stays 503).
 */
export async function makeVariationDocument(
  ctx: ServiceContext,
  loan: { id: number; applicationId: number; amountPence: number },
  amountPence: number,
): Promise<VariationDocument> {
  const { db, config, storage } = ctx;
  const reference = loanReference(loan.id);
  try {
    const data = await loadContractData(db, config, loan.applicationId);
    if (!data) throw AppError.notFound();
    const [pdf] = await runPdfJob(
      {
        kind: 'contract',
        data: {
          ...data,
          loanAmountPence: amountPence,
          variation: { loanReference: reference, previousAmountPence: loan.amountPence },
        },
      },
      { timeoutMs: config.timeouts.pdfTimeoutMs },
    );
    const key = newFileKey();
    await storage.put(key, pdf!);
    const title = contractDocumentTitle('loanAgreement', true);
    return {
      key,
      pdf: pdf!,
      title,
      fileName: `${title} ${reference} ${formatMoney(toPounds(amountPence))}.pdf`,
      size: pdf!.length,
      sha256: sha256Hex(pdf!),
      amountPence,
      previousAmountPence: loan.amountPence,
    };
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 503) throw error;
    ctx.logError('the variation agreement could not be made', error);
    throw new AppError(400, 'envelopeFailed');
  }
}

/**
 * Voids the loan's variation that may still be signed, if any (a new figure replaces it, a lower one
 * or the loan's end withdraws it): its link and code stop working, an envelope event says so, and its
 * unsigned agreement is set aside (soft-deleted; nobody should read an offer that no longer stands).
 * Answers the voided envelopes with their providers: one sent to DocuSign is voided there by the
 * caller once the change is committed (voidRemoteVariations). Runs under the loan's lock, in its transaction.
 */
export async function voidOpenVariation(
  tx: Database,
  loanId: number,
  actor: Pick<SessionUser, 'id'> | null,
  origin?: ServiceContext['origin'],
): Promise<VoidedEnvelope[]> {
  const voided = await tx
    .update(envelopes)
    .set({ status: 'voided', linkTokenHash: null, codeHash: null, codeExpiresAt: null })
    .where(and(eq(envelopes.loanId, loanId), eq(envelopes.kind, 'variation'), inArray(envelopes.status, ['created', 'notified'])))
    .returning({ id: envelopes.id, provider: envelopes.provider });
  for (const { id } of voided) {
    await recordEnvelopeEvent(tx, { envelopeId: id, type: 'voided', actor, origin });
    const unsigned = tx
      .select({ id: envelopeDocuments.fileId })
      .from(envelopeDocuments)
      .where(eq(envelopeDocuments.envelopeId, id));
    await tx
      .update(files)
      .set({ deletedAt: sql`now()` })
      .where(and(inArray(files.id, unsigned), isNull(files.deletedAt)));
  }
  return voided;
}

/**
 * Records the variation's agreement and its envelope, and marks it sent to the client (the raise
 * itself is the notice: the client is emailed in the same transaction), replacing any earlier one.
 * The envelope is the built-in provider's, made here, or the one already sent to DocuSign
 * (`sent`, under DocuSign's envelope id). Runs under the loan's lock; answers the envelope's id and
 * the envelopes it voided.
 */
export async function openVariationEnvelope(
  ctx: ServiceContext,
  tx: Database,
  loan: { id: number; applicationId: number },
  document: VariationDocument,
  sent: SentVariation | undefined,
): Promise<{ envelopeId: string; voided: VoidedEnvelope[] }> {
  const { actor, config, origin } = ctx;
  const voided = await voidOpenVariation(tx, loan.id, actor, origin);
  const [file] = await tx
    .insert(files)
    .values({
      applicationId: loan.applicationId,
      key: document.key,
      name: document.title,
      fileName: document.fileName,
      type: 'loanAgreement',
      contentType: 'application/pdf',
      size: document.size,
      uploadedBy: actor.id,
    })
    .returning({ id: files.id });
  const made = {
    applicationId: loan.applicationId,
    createdBy: actor.id,
    documents: [{ type: 'loanAgreement' as const, title: document.title, fileId: file!.id, sha256: document.sha256 }],
  };
  let envelopeId: string;
  if (sent) {
    envelopeId = sent.envelopeId;
    await insertEnvelope(tx, { ...made, id: envelopeId, provider: sent.provider, remoteSigner: sent.signer });
  } else {
    const provider = signingProvider(tx, config);
    if (provider.signsAt !== 'portal') throw new Error('a remote provider’s variation is sent before it is recorded');
    ({ envelopeId } = await provider.createEnvelope(tx, made));
  }
  await tx
    .update(envelopes)
    .set({ kind: 'variation', loanId: loan.id, amountPence: document.amountPence, status: 'notified', notifiedAt: sql`now()` })
    .where(eq(envelopes.id, envelopeId));
  await recordEnvelopeEvent(tx, { envelopeId, type: 'notified', actor, origin });
  return { envelopeId, voided };
}

/** The loan's variation that may be signed now (created or notified), locked when asked. */
export async function findOpenVariation(
  db: Database,
  loanId: number,
  options: { forUpdate?: boolean } = {},
): Promise<typeof envelopes.$inferSelect | undefined> {
  const query = db
    .select()
    .from(envelopes)
    .where(and(eq(envelopes.loanId, loanId), eq(envelopes.kind, 'variation'), inArray(envelopes.status, ['created', 'notified'])))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}
