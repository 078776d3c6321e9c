import { timingSafeEqual } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { applications, envelopeDocuments, envelopes, files, loans } from '../../db/schema';
import { signingProvider } from '../../esign';
import { sha256Hex } from '../../esign/builtin';
import { newFileKey } from '../../files/storage';
import { AppError } from '../../http/app-error';
import type { Database } from '../../db/connection';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { findLoan, lockLoan } from '../loans/find-loan';
import { tellVariationSigned } from '../loans/loan-notices';
import { tellParties } from '../loans/loan-parties';
import { loanMayTakeVariation } from '../../policies/loans';
import type { SealedDocument } from '../../esign/pades-seal';
import type { Signer } from '../../esign/provider';
import type { components } from '../../../shared/api/schema';
import { SIGNING_CODE_MAX_ATTEMPTS } from '../../../shared/rules/esign';
import { loanReference } from '../../../shared/rules/money';
import { applicationTransitions, transitionAllowedFrom } from '../../../shared/rules/transitions';
import {
  envelopeDocumentsOf,
  envelopeSignable,
  findEnvelopeByToken,
  readStoredBytes,
  recordEnvelopeEvent,
  type EnvelopeRow,
} from './envelope-record';
import { signingCodeHash } from './send-signing-code';

type SigningResult = components['schemas']['SigningResult'];

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** The answer of a signed envelope: the same however often it is asked (a lost answer is asked again). */
async function signedResult(db: Database, envelope: EnvelopeRow): Promise<SigningResult> {
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

/** The signed copies, stored already, recorded against the application and their envelope's documents. */
async function recordSignedCopies(
  tx: Database,
  input: {
    applicationId: number;
    actorId: number;
    documents: Awaited<ReturnType<typeof envelopeDocumentsOf>>;
    sealed: readonly SealedDocument[];
    keys: readonly string[];
  },
): Promise<string[]> {
  const signedHashes: string[] = [];
  for (const [i, document] of input.documents.entries()) {
    const { pdf, level, timestampPending } = input.sealed[i]!;
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

/** The envelope is signed: by whom, from where, when; its code and link stop working. */
async function markEnvelopeSigned(tx: Database, envelopeId: string, signer: Signer): Promise<void> {
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
    })
    .where(eq(envelopes.id, envelopeId));
}

/**
 * Checks the code under the envelope's lock. A wrong code counts an attempt (committed even though
 * the call fails), the fifth spends the code; no code, an expired one or a spent one says so.
 */
async function checkCode(ctx: ServiceContext, token: string, code: string): Promise<void> {
  const failure = await ctx.db.transaction(async (tx) => {
    const { envelope } = await findEnvelopeByToken({ db: tx, actor: ctx.actor }, token, { forUpdate: true });
    if (envelope.status === 'signed') return undefined;
    if (!envelope.codeHash || !envelope.codeExpiresAt) return new AppError(400, 'signingCodeNeeded');
    if (envelope.codeAttempts >= SIGNING_CODE_MAX_ATTEMPTS) return new AppError(429, 'signingCodeAttempts');
    const [live] = await tx
      .select({ id: envelopes.id })
      .from(envelopes)
      .where(and(eq(envelopes.id, envelope.id), gt(envelopes.codeExpiresAt, sql`now()`)));
    if (!live) return new AppError(400, 'signingCodeExpired');
    if (sameHash(envelope.codeHash, signingCodeHash(envelope.id, code))) return undefined;
    const attempts = envelope.codeAttempts + 1;
    await tx.update(envelopes).set({ codeAttempts: attempts }).where(eq(envelopes.id, envelope.id));
    await recordEnvelopeEvent(tx, {
      envelopeId: envelope.id,
      type: 'codeFailed',
      actor: ctx.actor,
      origin: ctx.origin,
      detail: { attempts },
    });
    return attempts >= SIGNING_CODE_MAX_ATTEMPTS
      ? new AppError(429, 'signingCodeAttempts')
      : new AppError(400, 'signingCodeInvalid');
  });
  if (failure) throw failure;
}

/**
 * POST /esign/{token}/sign: the client signs with the emailed code (docs/decisions.md: 285-286).
 * The signed copies are made first (PDF worker: visible signature, certificate page, PAdES
 * signature; then the time-stamp: 475-479) and stored; then one transaction, under the application's and the envelope's row
 * locks, records them, completes the application (customerAccepted) and creates its loan, with the
 * audit, the envelope event and the emails. A repeated call, or one that lost the race, answers the
 * first result and keeps no second copy: exactly one loan.
 */
export async function completeSigning(
  ctx: ServiceContext,
  input: { token: string; code: string; agree: true },
): Promise<SigningResult> {
  const { db, actor, config, storage } = ctx;
  const first = await findEnvelopeByToken(ctx, input.token);
  if (first.envelope.status === 'signed') return signedResult(db, first.envelope);
  if (!(await envelopeSignable(db, first.envelope, first.application))) throw new AppError(409, 'conflict');
  await checkCode(ctx, input.token, input.code);

  // The documents as prepared, checked against the hashes recorded in the envelope.
  const documents = await envelopeDocumentsOf(db, first.envelope.id);
  const originals = [];
  for (const document of documents) {
    const bytes = await readStoredBytes(storage, document.file.key);
    if (!bytes || sha256Hex(bytes) !== document.sha256) {
      ctx.logError('an envelope document is missing or changed since it was prepared', { fileId: document.fileId });
      throw new AppError(400, 'envelopeFailed');
    }
    originals.push({ pdf: new Uint8Array(bytes), title: document.title, sha256: document.sha256 });
  }
  const signedAt = new Date();
  const signer: Signer = {
    userId: actor.id,
    name: `${first.application.name} ${first.application.surname}`.trim(),
    email: first.application.clientEmail,
    address: ctx.origin.address,
    device: ctx.origin.device ?? '',
    signedAt,
  };
  const sealed = await signingProvider(db, config).complete({ envelopeId: first.envelope.id, documents: originals, signer });
  // What fell short (a silent time-stamping authority, validation data not had) is the operator's to see.
  const problems = [...new Set(sealed.flatMap((document) => document.problems))];
  if (problems.length > 0)
    ctx.logError('the signed copies are not all they could be', { envelopeId: first.envelope.id, problems });
  const keys = sealed.map(() => newFileKey());
  for (const [i, document] of sealed.entries()) await storage.put(keys[i]!, document.pdf);

  let kept = false;
  try {
    if (first.envelope.kind === 'variation') {
      const result = await db.transaction((tx) =>
        completeVariation(ctx, tx, {
          token: input.token,
          code: input.code,
          loanId: first.envelope.loanId!,
          documents,
          sealed,
          keys,
          signer,
        }),
      );
      kept = true;
      return result;
    }
    const result = await db.transaction(async (tx) => {
      // Locks in the order every application change takes them: the application, then its envelope.
      const [application] = await tx.select().from(applications).where(eq(applications.id, first.application.id)).for('update');
      const locked = await findEnvelopeByToken({ db: tx, actor }, input.token, { forUpdate: true });
      // Someone (this client, in another tab) signed meanwhile: theirs stands.
      const envelope = (await tx.select().from(envelopes).where(eq(envelopes.id, locked.envelope.id)))[0]!;
      if (envelope.status === 'signed') return signedResult(tx, envelope);
      if (!application || !transitionAllowedFrom(applicationTransitions, application.status, 'customerAccepted'))
        throw new AppError(409, 'conflict');
      // The code checked above must still be the envelope's (a new one replaces it).
      if (!envelope.codeHash || !sameHash(envelope.codeHash, signingCodeHash(envelope.id, input.code)))
        throw new AppError(400, 'signingCodeNeeded');

      const signedHashes = await recordSignedCopies(tx, {
        applicationId: application.id,
        actorId: actor.id,
        documents,
        sealed,
        keys,
      });
      await markEnvelopeSigned(tx, envelope.id, signer);
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
        origin: ctx.origin,
        detail: { signedSha256: signedHashes, padesLevels: sealed.map((document) => document.level) },
      });
      await recordAudit(tx, {
        actorUserId: actor.id,
        entityType: 'application',
        entityId: application.id,
        action: 'signed',
        from: { status: application.status },
        to: { status: 'customerAccepted', envelopeId: envelope.id, loanId: loan!.id },
      });
      await recordAudit(tx, {
        actorUserId: actor.id,
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
        applicationId: application.id,
        envelopeId: envelope.id,
        kind: 'contract' as const,
        status: 'customerAccepted' as const,
        signedAt: signedAt.toISOString(),
        loanId: loan!.id,
        loanReference: reference,
      };
    });
    return result;
  } finally {
    if (!kept) for (const key of keys) await storage.remove(key).catch((error) => ctx.logError('signed copy left behind', error));
  }
}

/**
 * The variation's transaction (docs/decisions.md, 507): under the loan's lock, then the envelope's
 * (the order every change of the loan's facility takes them), the envelope must still be open and
 * its figure still the loan's pending one (a lower figure or a newer raise voided it: 410 through
 * the link); then the signed copy is recorded, the envelope signed and the loan's signed facility
 * becomes the variation's figure, once: a repeated call finds the envelope signed and answers the
 * first result. Audited on the loan; the lawyer, the client and staff are told.
 */
async function completeVariation(
  ctx: ServiceContext,
  tx: Database,
  input: {
    token: string;
    code: string;
    loanId: number;
    documents: Awaited<ReturnType<typeof envelopeDocumentsOf>>;
    sealed: readonly SealedDocument[];
    keys: readonly string[];
    signer: Signer;
  },
): Promise<SigningResult> {
  const { actor, config } = ctx;
  await lockLoan(tx, input.loanId);
  const { envelope } = await findEnvelopeByToken({ db: tx, actor }, input.token, { forUpdate: true });
  if (envelope.status === 'signed') return signedResult(tx, envelope);
  if (envelope.loanId !== input.loanId) throw new AppError(409, 'conflict');
  const loan = await findLoan(tx, actor, input.loanId);
  if (!loanMayTakeVariation(loan.status) || loan.pendingAmountPence !== envelope.amountPence || envelope.amountPence === null)
    throw new AppError(409, 'conflict');
  if (!envelope.codeHash || !sameHash(envelope.codeHash, signingCodeHash(envelope.id, input.code)))
    throw new AppError(400, 'signingCodeNeeded');

  const signedHashes = await recordSignedCopies(tx, {
    applicationId: envelope.applicationId,
    actorId: actor.id,
    documents: input.documents,
    sealed: input.sealed,
    keys: input.keys,
  });
  await markEnvelopeSigned(tx, envelope.id, input.signer);
  await tx
    .update(loans)
    .set({ amountPence: envelope.amountPence, pendingAmountPence: null, updatedAt: sql`now()` })
    .where(eq(loans.id, loan.id));
  await recordEnvelopeEvent(tx, {
    envelopeId: envelope.id,
    type: 'signed',
    actor,
    origin: ctx.origin,
    detail: { signedSha256: signedHashes, padesLevels: input.sealed.map((document) => document.level) },
  });
  await recordAudit(tx, {
    actorUserId: actor.id,
    entityType: 'loan',
    entityId: loan.id,
    action: 'variationSigned',
    from: { amountPence: loan.amountPence, pendingAmountPence: loan.pendingAmountPence },
    to: { amountPence: envelope.amountPence, pendingAmountPence: null, envelopeId: envelope.id },
  });
  await tellVariationSigned(tx, config, loan, envelope.amountPence);
  const [application] = await tx
    .select({ status: applications.status })
    .from(applications)
    .where(eq(applications.id, envelope.applicationId));
  return {
    applicationId: envelope.applicationId,
    envelopeId: envelope.id,
    kind: 'variation',
    status: application!.status as SigningResult['status'],
    signedAt: input.signer.signedAt.toISOString(),
    loanId: loan.id,
    loanReference: loanReference(loan.id),
  };
}
