import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { envelopeDocuments, envelopes, files } from '../../db/schema';
import { signingProvider, type PortalSigningProvider } from '../../esign';
import { sha256Hex } from '../../esign/builtin';
import { newFileKey } from '../../files/storage';
import { AppError } from '../../http/app-error';
import { loadContractData } from '../../pdf/contract/contract-data';
import { runPdfJob } from '../../pdf/render-in-worker';
import type { ServiceContext } from '../context';
import { contractDocumentTitle } from '../../../shared/rules/document-types';
import { formatMoney } from '../../../shared/rules/formats';
import { loanReference, toPounds } from '../../../shared/rules/money';
import { recordEnvelopeEvent } from './envelope-record';

/**
 * The provider a new variation is made with: the portal's own (docs/decisions.md, 536). A variation
 * is not sent to a remote provider (DocuSign) yet, so with ESIGN_PROVIDER=docusign a raise that
 * needs one is refused, 409 `variationNotWithDocusign`, before anything is made or recorded.
 */
export function variationProvider(ctx: Pick<ServiceContext, 'db' | 'config'>): PortalSigningProvider {
  const provider = signingProvider(ctx.db, ctx.config);
  if (provider.signsAt !== 'portal') throw new AppError(409, 'variationNotWithDocusign');
  return provider;
}

/** Refuses a raise that needs a variation the configured provider cannot take (see variationProvider). */
export function assertVariationSignable(ctx: Pick<ServiceContext, 'db' | 'config'>): void {
  variationProvider(ctx);
}

/** A variation's Credit Agreement, laid out and stored, not yet recorded (the transaction does that). */
export interface VariationDocument {
  key: string;
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
 * Answers the voided envelopes' ids. Runs under the loan's lock, in its transaction.
 */
export async function voidOpenVariation(
  tx: Database,
  loanId: number,
  actor: Pick<SessionUser, 'id'> | null,
  origin?: ServiceContext['origin'],
): Promise<string[]> {
  const voided = await tx
    .update(envelopes)
    .set({ status: 'voided', linkTokenHash: null, codeHash: null, codeExpiresAt: null })
    .where(and(eq(envelopes.loanId, loanId), eq(envelopes.kind, 'variation'), inArray(envelopes.status, ['created', 'notified'])))
    .returning({ id: envelopes.id });
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
  return voided.map(({ id }) => id);
}

/**
 * Records the variation's agreement and its envelope, and marks it sent to the client (the raise
 * itself is the notice: the client is emailed in the same transaction), replacing any earlier one.
 * Runs under the loan's lock; answers the envelope's id.
 */
export async function openVariationEnvelope(
  ctx: ServiceContext,
  tx: Database,
  loan: { id: number; applicationId: number },
  document: VariationDocument,
): Promise<string> {
  const { actor, config, origin } = ctx;
  await voidOpenVariation(tx, loan.id, actor, origin);
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
  const { envelopeId } = await variationProvider({ db: tx, config }).createEnvelope(tx, {
    applicationId: loan.applicationId,
    createdBy: actor.id,
    documents: [{ type: 'loanAgreement', title: document.title, fileId: file!.id, sha256: document.sha256 }],
  });
  await tx
    .update(envelopes)
    .set({ kind: 'variation', loanId: loan.id, amountPence: document.amountPence, status: 'notified', notifiedAt: sql`now()` })
    .where(eq(envelopes.id, envelopeId));
  await recordEnvelopeEvent(tx, { envelopeId, type: 'notified', actor, origin });
  return envelopeId;
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
