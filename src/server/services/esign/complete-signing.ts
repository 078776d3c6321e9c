import { timingSafeEqual } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { envelopes } from '../../db/schema';
import { builtinProvider, sha256Hex } from '../../esign/builtin';
import { AppError } from '../../errors/app-error';
import type { Signer } from '../../esign/provider';
import type { ServiceContext } from '../context';
import { SIGNING_CODE_MAX_ATTEMPTS } from '../../../shared/rules/esign';
import {
  envelopeDocumentsOf,
  envelopeSignable,
  findEnvelopeByToken,
  readStoredBytes,
  recordEnvelopeEvent,
} from './envelope-record';
import { countLinkCall } from '../../auth/link-call-limit';
import { recordSignedEnvelope, signedResult, type SigningResult } from './record-signed-envelope';
import { signingCodeHash } from './send-signing-code';
import { singleFlight } from '../single-flight';

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
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
 * The sealing and recording of one envelope's signature, once at a time in this process: a
 * repeated call (a double tap, a retry while the first is still sealing, a second tab) waits for
 * the first call's result instead of sealing every document again (5-13 s of the PDF worker's time
 * each). Across processes the envelope's row lock still lets exactly one call record the signature
 * and create the loan; another process's call seals and then answers the first result
 * (docs/decisions.md 577).
 */
const sealOnce = singleFlight<SigningResult>();

/**
 * POST /esign/{token}/sign: the client signs with the emailed code (docs/decisions.md: 285-286) on
 * the built-in provider's page. The signed copies are made first (PDF worker: visible signature,
 * certificate page, PAdES signature; then the time-stamp: 475-479); recordSignedEnvelope then
 * stores and records them and finishes the envelope exactly once (a contract completes the
 * application and creates its loan; a variation raises the loan's signed facility: 507, 535),
 * checking under its locks that the link and the code are still this envelope's. Each call checks
 * its own link and code first; then calls for the same envelope share one sealing (sealOnce).
 */
export async function completeSigning(
  ctx: ServiceContext,
  input: { token: string; code: string; agree: true },
): Promise<SigningResult> {
  const { db } = ctx;
  await countLinkCall(db, { token: input.token, address: ctx.origin.address });
  const first = await findEnvelopeByToken(ctx, input.token);
  if (first.envelope.status === 'signed') return signedResult(db, first.envelope);
  if (!(await envelopeSignable(db, first.envelope, first.application))) throw new AppError(409, 'conflict');
  await checkCode(ctx, input.token, input.code);
  return sealOnce(first.envelope.id, () => sealAndRecord(ctx, input, first));
}

/** Seals the envelope's documents and records the signature: the work a repeated call must not do again. */
async function sealAndRecord(
  ctx: ServiceContext,
  input: { token: string; code: string },
  first: Awaited<ReturnType<typeof findEnvelopeByToken>>,
): Promise<SigningResult> {
  const { db, actor, config, storage } = ctx;
  // Signed by a run that ended between this call's first read and now: its answer, without sealing again.
  const now = await findEnvelopeByToken(ctx, input.token);
  if (now.envelope.status === 'signed') return signedResult(db, now.envelope);
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
  const sealed = await builtinProvider(db, config).complete({ envelopeId: first.envelope.id, documents: originals, signer });
  // What fell short (a silent time-stamping authority, validation data not had) is the operator's to see.
  const problems = [...new Set(sealed.flatMap((document) => document.problems))];
  if (problems.length > 0)
    ctx.logError('the signed copies are not all they could be', { envelopeId: first.envelope.id, problems });
  const { result } = await recordSignedEnvelope(ctx, {
    envelopeId: first.envelope.id,
    documents,
    copies: sealed,
    signer: { userId: actor.id, address: signer.address, device: signer.device || null, signedAt },
    actor,
    origin: ctx.origin,
    underLock: async (tx, envelope) => {
      // The link must still be this client's and valid, and the code checked above still the envelope's (a new one replaces it).
      await findEnvelopeByToken({ db: tx, actor }, input.token, { forUpdate: true });
      if (!envelope.codeHash || !sameHash(envelope.codeHash, signingCodeHash(envelope.id, input.code)))
        throw new AppError(400, 'signingCodeNeeded');
    },
  });
  return result;
}
