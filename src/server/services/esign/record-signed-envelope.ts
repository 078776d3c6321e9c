import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { applications, envelopeDocuments, envelopes, files, loans } from '../../db/schema';
import { sha256Hex } from '../../esign/builtin';
import type { PadesLevel } from '../../esign/pades-seal';
import { newFileKey } from '../../files/storage';
import { AppError } from '../../errors/app-error';
import type { ServiceContext } from '../context';
import { lockLoan } from '../loans/find-loan';
import type { components } from '../../../shared/api/schema';
import { loanReference } from '../../../shared/rules/loan-reference';
import type { envelopeDocumentsOf, EnvelopeRow } from './envelope-record';
import { contractFinisher } from './finish-signed-contract';
import { variationFinisher } from './finish-signed-variation';

export type SigningResult = components['schemas']['SigningResult'];

/** A signed copy of one envelope document: sealed by the portal (its PAdES level) or the provider's own (no level). */
export interface SignedCopy {
  pdf: Uint8Array;
  level: PadesLevel | null;
  /** A document time-stamp is owed (the built-in provider's authority did not answer: decision 479). */
  timestampPending: boolean;
}

/** Who signed, as the envelope records it. */
export interface EnvelopeSigner {
  userId: number;
  address: string | null;
  device: string | null;
  signedAt: Date;
}

/** What finishing a signed envelope of either kind is given, inside the transaction and its locks. */
export interface SignedEnvelopeFacts {
  envelope: EnvelopeRow;
  signer: EnvelopeSigner;
  actor: { id: number } | null;
  origin?: ServiceContext['origin'];
  /** The `signed` event's detail (the copies' hashes and levels, and the caller's own). */
  eventDetail: Record<string, unknown>;
  /** The caller's own detail, added to the audit. */
  detail?: Record<string, unknown>;
}

/**
 * Finishes a signed envelope of one kind, in the transaction, once its copies are recorded and the
 * envelope is signed: made by the kind's check, under the locks, once it found the envelope signable.
 */
export type SignedEnvelopeFinisher = (tx: Database, config: Config, facts: SignedEnvelopeFacts) => Promise<SigningResult>;

/** The answer of a signed envelope: the same however often it is asked (a lost answer is asked again). */
export async function signedResult(db: Database, envelope: EnvelopeRow): Promise<SigningResult> {
  const [loan] = await db
    .select({ id: loans.id, applicationStatus: applications.status })
    .from(loans)
    .innerJoin(applications, eq(applications.id, loans.applicationId))
    .where(eq(loans.applicationId, envelope.applicationId));
  if (!loan || !envelope.signedAt) throw new AppError(409, 'conflict');
  return {
    applicationId: envelope.applicationId,
    envelopeId: envelope.id,
    kind: envelope.kind === 'variation' ? 'variation' : 'contract',
    // A variation leaves the application as it is; the contract's signing made it customerAccepted.
    status: envelope.kind === 'variation' ? (loan.applicationStatus as SigningResult['status']) : 'customerAccepted',
    signedAt: envelope.signedAt.toISOString(),
    loanId: loan.id,
    loanReference: loanReference(loan.id),
  };
}

/**
 * What a signature does, whichever provider's and whichever kind of envelope it is (docs/decisions.md
 * 285, 507, 528, 535): the signed copies are stored first, then one transaction, under the row locks
 * every change of the same record takes in the same order (a contract: the application, then the
 * envelope; a variation: the loan, then the envelope), records them and the envelope signed, and
 * finishes the envelope's kind: a contract completes the application (customerAccepted) and creates
 * its loan (finish-signed-contract.ts); a variation makes its figure the loan's signed facility
 * (finish-signed-variation.ts). An envelope signed meanwhile (a repeated or concurrent call, a
 * replayed event) answers its first result and keeps no second copy: exactly one loan, one raise.
 * One no longer signable (the application moved on; the loan's pending figure changed) is 409.
 * `underLock` is the caller's own check and record in the same transaction, made only when the
 * envelope is still to be signed.
 */
export async function recordSignedEnvelope(
  ctx: Pick<ServiceContext, 'db' | 'config' | 'storage' | 'logError'>,
  input: {
    envelopeId: string;
    documents: Awaited<ReturnType<typeof envelopeDocumentsOf>>;
    copies: readonly SignedCopy[];
    signer: EnvelopeSigner;
    /** Who made the change: the signing client, or nobody (a provider's report). */
    actor: { id: number } | null;
    origin?: ServiceContext['origin'];
    /** Added to the `signed` event's detail and the audit. */
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
      // An envelope's kind and loan never change: read first, they decide which locks to take.
      const [made] = await tx
        .select({ kind: envelopes.kind, loanId: envelopes.loanId, applicationId: envelopes.applicationId })
        .from(envelopes)
        .where(eq(envelopes.id, input.envelopeId));
      if (!made) throw AppError.notFound();
      const variation = made.kind === 'variation';
      if (variation) {
        if (made.loanId === null) throw new AppError(409, 'conflict');
        await lockLoan(tx, made.loanId);
      } else
        await tx.select({ id: applications.id }).from(applications).where(eq(applications.id, made.applicationId)).for('update');
      const [envelope] = await tx.select().from(envelopes).where(eq(envelopes.id, input.envelopeId)).for('update');
      if (!envelope) throw AppError.notFound();
      // Signed meanwhile (another tab, a repeated call, the same event again): theirs stands.
      if (envelope.status === 'signed') return { result: await signedResult(tx, envelope), recorded: false };
      const finish = await (variation ? variationFinisher : contractFinisher)(tx, envelope);
      await input.underLock?.(tx, envelope);
      if (envelope.status !== 'created' && envelope.status !== 'notified') throw new AppError(409, 'conflict');

      const signedHashes = await recordSignedCopies(tx, {
        applicationId: envelope.applicationId,
        actorId: actor?.id ?? null,
        documents,
        copies,
        keys,
      });
      const completionCertificateFileId =
        certificateKey && (await recordCertificate(tx, envelope.id, certificateKey, input.certificate!.length));
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
      const result = await finish(tx, config, {
        envelope,
        signer,
        actor,
        origin: input.origin,
        eventDetail: { signedSha256: signedHashes, padesLevels: copies.map((copy) => copy.level), ...input.detail },
        detail: input.detail,
      });
      kept = true;
      return { result, recorded: true };
    });
  } finally {
    if (!kept)
      for (const key of [...keys, ...(certificateKey ? [certificateKey] : [])])
        await storage.remove(key).catch((error) => ctx.logError('signed copy left behind', error));
  }
}

/** The signed copies, stored already, recorded against the application and their envelope's documents. */
async function recordSignedCopies(
  tx: Database,
  input: {
    applicationId: number;
    actorId: number | null;
    documents: Awaited<ReturnType<typeof envelopeDocumentsOf>>;
    copies: readonly SignedCopy[];
    keys: readonly string[];
  },
): Promise<string[]> {
  const signedHashes: string[] = [];
  for (const [i, document] of input.documents.entries()) {
    const { pdf, level, timestampPending } = input.copies[i]!;
    const signedHash = sha256Hex(pdf);
    signedHashes.push(signedHash);
    const [file] = await tx
      .insert(files)
      .values({
        applicationId: input.applicationId,
        key: input.keys[i]!,
        name: `${document.title} (signed)`,
        fileName: document.file.fileName.replace(/\.pdf$/, ' - signed.pdf'),
        type: document.type,
        contentType: 'application/pdf',
        size: pdf.length,
        uploadedBy: input.actorId,
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
  return signedHashes;
}

/** A remote provider's certificate of completion: not one of the application's documents (no type of theirs), the envelope names it. */
async function recordCertificate(tx: Database, envelopeId: string, key: string, size: number): Promise<number> {
  const [file] = await tx
    .insert(files)
    .values({
      applicationId: null,
      key,
      name: 'Certificate of completion',
      fileName: `certificate-of-completion-${envelopeId}.pdf`,
      type: 'completionCertificate',
      contentType: 'application/pdf',
      size,
      uploadedBy: null,
    })
    .returning({ id: files.id });
  return file!.id;
}
