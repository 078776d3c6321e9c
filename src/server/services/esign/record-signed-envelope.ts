import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import { applications, envelopeDocuments, envelopes, files, loans } from '../../db/schema';
import { sha256Hex } from '../../esign/builtin';
import type { PadesLevel } from '../../esign/pades-seal';
import { newFileKey } from '../../files/storage';
import { AppError } from '../../http/app-error';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { tellParties } from '../loans/loan-parties';
import type { components } from '../../../shared/api/schema';
import { loanReference } from '../../../shared/rules/money';
import { applicationTransitions, transitionAllowedFrom } from '../../../shared/rules/transitions';
import { recordEnvelopeEvent, type envelopeDocumentsOf, type EnvelopeRow } from './envelope-record';

export type SigningResult = components['schemas']['SigningResult'];

/** A signed copy of one envelope document: sealed by the portal (its PAdES level) or the provider's own (no level). */
export interface SignedCopy {
  pdf: Uint8Array;
  level: PadesLevel | null;
  /** A document time-stamp is owed (the built-in provider's authority did not answer: decision 479). */
  timestampPending: boolean;
}

/** The answer of a signed envelope: the same however often it is asked (a lost answer is asked again). */
export async function signedResult(db: Database, envelope: EnvelopeRow): Promise<SigningResult> {
  const [loan] = await db.select({ id: loans.id }).from(loans).where(eq(loans.applicationId, envelope.applicationId));
  if (!loan || !envelope.signedAt) throw new AppError(409, 'conflict');
  return {
    applicationId: envelope.applicationId,
    envelopeId: envelope.id,
    status: 'customerAccepted',
    signedAt: envelope.signedAt.toISOString(),
    loanId: loan.id,
    loanReference: loanReference(loan.id),
  };
}

/**
 * What a signature does, whichever provider's it is (docs/decisions.md 285, 528): the signed copies
 * are stored first, then one transaction, under the application's and the envelope's row locks (the
 * order every application change takes them), records them, completes the application
 * (customerAccepted) and creates its loan, with the envelope event, the audit and the emails. An
 * envelope signed meanwhile (a repeated or concurrent call, a replayed event) answers its first
 * result and keeps no second copy: exactly one loan. `underLock` is the caller's own check and
 * record in the same transaction, made only when the envelope is still to be signed.
 */
export async function recordSignedEnvelope(
  ctx: Pick<ServiceContext, 'db' | 'config' | 'storage' | 'logError'>,
  input: {
    applicationId: number;
    envelopeId: string;
    documents: Awaited<ReturnType<typeof envelopeDocumentsOf>>;
    copies: readonly SignedCopy[];
    signer: { userId: number; address: string | null; device: string | null; signedAt: Date };
    /** Who made the change: the signing client, or nobody (a provider's report). */
    actor: { id: number } | null;
    origin?: ServiceContext['origin'];
    /** Added to the `signed` event's detail. */
    detail?: Record<string, unknown>;
    /** A remote provider's certificate of completion, kept beside the copies and named by the envelope. */
    certificate?: Uint8Array;
    underLock?: (tx: Database, envelope: EnvelopeRow) => Promise<void>;
  },
): Promise<{ result: SigningResult; recorded: boolean }> {
  const { db, config, storage } = ctx;
  const { documents, copies, signer, actor } = input;
  if (copies.length !== documents.length) throw new Error('one signed copy per envelope document');
  const keys = copies.map(() => newFileKey());
  const certificateKey = input.certificate ? newFileKey() : undefined;
  for (const [i, copy] of copies.entries()) await storage.put(keys[i]!, copy.pdf);
  if (certificateKey) await storage.put(certificateKey, input.certificate!);
  let kept = false;
  try {
    return await db.transaction(async (tx) => {
      const [application] = await tx.select().from(applications).where(eq(applications.id, input.applicationId)).for('update');
      const [envelope] = await tx.select().from(envelopes).where(eq(envelopes.id, input.envelopeId)).for('update');
      if (!envelope) throw AppError.notFound();
      // Signed meanwhile (another tab, a repeated call, the same event again): theirs stands.
      if (envelope.status === 'signed') return { result: await signedResult(tx, envelope), recorded: false };
      if (!application || !transitionAllowedFrom(applicationTransitions, application.status, 'customerAccepted'))
        throw new AppError(409, 'conflict');
      await input.underLock?.(tx, envelope);
      if (envelope.status !== 'created' && envelope.status !== 'notified') throw new AppError(409, 'conflict');

      const signedHashes: string[] = [];
      for (const [i, document] of documents.entries()) {
        const { pdf, level, timestampPending } = copies[i]!;
        const signedHash = sha256Hex(pdf);
        signedHashes.push(signedHash);
        const [file] = await tx
          .insert(files)
          .values({
            applicationId: application.id,
            key: keys[i]!,
            name: `${document.title} (signed)`,
            fileName: document.file.fileName.replace(/\.pdf$/, ' - signed.pdf'),
            type: document.type,
            contentType: 'application/pdf',
            size: pdf.length,
            uploadedBy: actor?.id ?? null,
          })
          .returning({ id: files.id });
        await tx
          .update(envelopeDocuments)
          .set({
            signedFileId: file!.id,
            signedSha256: signedHash,
            padesLevel: level,
            // Owed a document time-stamp: the next pass of the time-stamping job asks for it.
            timestampDueAt: timestampPending ? sql`now()` : null,
          })
          .where(eq(envelopeDocuments.id, document.id));
      }
      let completionCertificateFileId: number | null = null;
      if (certificateKey) {
        // Not one of the application's documents (no type of theirs): the envelope names it.
        const [file] = await tx
          .insert(files)
          .values({
            applicationId: null,
            key: certificateKey,
            name: 'Certificate of completion',
            fileName: `certificate-of-completion-${envelope.id}.pdf`,
            type: 'completionCertificate',
            contentType: 'application/pdf',
            size: input.certificate!.length,
            uploadedBy: null,
          })
          .returning({ id: files.id });
        completionCertificateFileId = file!.id;
      }
      await tx
        .update(envelopes)
        .set({
          status: 'signed',
          signedAt: signer.signedAt,
          signerUserId: signer.userId,
          signerAddress: signer.address,
          signerDevice: signer.device || null,
          codeHash: null,
          codeExpiresAt: null,
          ...(completionCertificateFileId ? { completionCertificateFileId } : {}),
        })
        .where(eq(envelopes.id, envelope.id));
      await tx
        .update(applications)
        .set({ status: 'customerAccepted', updatedAt: sql`now()` })
        .where(eq(applications.id, application.id));
      const [loan] = await tx
        .insert(loans)
        .values({ applicationId: application.id, amountPence: application.loanAmountPence ?? 0, status: 'open' })
        .returning({ id: loans.id });
      await recordEnvelopeEvent(tx, {
        envelopeId: envelope.id,
        type: 'signed',
        actor,
        origin: input.origin,
        detail: { signedSha256: signedHashes, padesLevels: copies.map((copy) => copy.level), ...input.detail },
      });
      await recordAudit(tx, {
        actorUserId: actor?.id ?? null,
        entityType: 'application',
        entityId: application.id,
        action: 'signed',
        from: { status: application.status },
        to: { status: 'customerAccepted', envelopeId: envelope.id, loanId: loan!.id, ...input.detail },
      });
      await recordAudit(tx, {
        actorUserId: actor?.id ?? null,
        entityType: 'loan',
        entityId: loan!.id,
        action: 'created',
        to: { status: 'open', amountPence: application.loanAmountPence, applicationId: application.id },
      });
      const reference = loanReference(loan!.id);
      await tellParties(tx, config, application.id, ['lawyer'], () => ({
        subject: `Loan ${reference} created: your client signed the documents`,
        heading: 'A loan has been created',
        body: `Your client has signed the documents. A loan (${reference}) has been created for this application.`,
        action: 'View application',
        path: `/applications/${application.id}/application-customer-accepted-lawyer`,
      }));
      await tellParties(tx, config, application.id, ['customer'], () => ({
        subject: 'You have signed your documents',
        heading: 'Your documents are signed',
        body: `Thank you. You have signed the documents and your loan (${reference}) has been created. You can download the signed documents from your application.`,
        action: 'View application',
        path: `/applications/${application.id}/application-customer-accepted-provider`,
      }));
      kept = true;
      return {
        result: {
          applicationId: application.id,
          envelopeId: envelope.id,
          status: 'customerAccepted' as const,
          signedAt: signer.signedAt.toISOString(),
          loanId: loan!.id,
          loanReference: reference,
        },
        recorded: true,
      };
    });
  } finally {
    if (!kept)
      for (const key of [...keys, ...(certificateKey ? [certificateKey] : [])])
        await storage.remove(key).catch((error) => ctx.logError('signed copy left behind', error));
  }
}
