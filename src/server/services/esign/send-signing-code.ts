import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { envelopes } from '../../db/schema';
import { sha256Hex } from '../../esign/builtin';
import { AppError } from '../../errors/app-error';
import { enqueueEmail } from '../../mail/outbox';
import { renderEmail } from '../../mail/templates';
import { recordAudit } from '../audit';
import { takeAttempt } from '../../auth/rate-limit';
import { countLinkCall } from '../../auth/link-call-limit';
import type { ServiceContext } from '../context';
import {
  SIGNING_CODE_DAY_MS,
  SIGNING_CODE_DIGITS,
  SIGNING_CODE_TTL_MINUTES,
  SIGNING_CODES_PER_DAY,
  SIGNING_CODES_PER_LINK,
} from '../../../shared/rules/esign';
import { envelopeHomePath, envelopeSignable, findEnvelopeByToken, maskEmail, recordEnvelopeEvent } from './envelope-record';

/** The stored form of a code: bound to its envelope, so one envelope's hash says nothing of another's. */
export function signingCodeHash(envelopeId: string, code: string): string {
  return sha256Hex(`${envelopeId}:${code}`);
}

/**
 * POST /esign/{token}/code: a new one-time code for the signer, emailed through the outbox (so the
 * development mailbox shows it), replacing the last one; 10 minutes, 5 attempts (docs/decisions.md:
 * 286). At most SIGNING_CODES_PER_LINK codes per link (429 `signingCodeLimit`), and
 * SIGNING_CODES_PER_DAY per envelope across its links (429 `tooManyAttempts`).
 */
export async function sendSigningCode(
  ctx: ServiceContext,
  input: { token: string },
): Promise<{ sentTo: string; expiresAt: string }> {
  const { db, actor, config } = ctx;
  await countLinkCall(db, { token: input.token, address: ctx.origin.address });
  await findEnvelopeByToken(ctx, input.token);
  return db.transaction(async (tx) => {
    const { envelope, application } = await findEnvelopeByToken({ db: tx, actor }, input.token, { forUpdate: true });
    if (envelope.status === 'signed' || !(await envelopeSignable(tx, envelope, application))) throw new AppError(409, 'conflict');
    if (envelope.linkCodesSent >= SIGNING_CODES_PER_LINK) throw new AppError(429, 'signingCodeLimit');
    const attempt = await takeAttempt(
      tx,
      [{ key: `signing-code:${envelope.id}`, max: SIGNING_CODES_PER_DAY }],
      SIGNING_CODE_DAY_MS,
    );
    if (!attempt.allowed) throw new AppError(429, 'tooManyAttempts', { retryAfter: attempt.retryAfter });
    const code = String(randomInt(0, 10 ** SIGNING_CODE_DIGITS)).padStart(SIGNING_CODE_DIGITS, '0');
    const [row] = await tx
      .update(envelopes)
      .set({
        codeHash: signingCodeHash(envelope.id, code),
        codeExpiresAt: sql`now() + ${SIGNING_CODE_TTL_MINUTES} * interval '1 minute'`,
        codeAttempts: 0,
        linkCodesSent: sql`${envelopes.linkCodesSent} + 1`,
      })
      .where(eq(envelopes.id, envelope.id))
      .returning({ expiresAt: envelopes.codeExpiresAt });
    const email = renderEmail(config.brand, {
      subject: 'Your code to sign your documents',
      heading: 'Your code to sign your documents',
      body: `Your one-time code is ${code}. It works for ${SIGNING_CODE_TTL_MINUTES} minutes. If you did not ask for it, please contact us.`,
      action: 'Back to the signing page',
      url: `${config.publicUrl}${envelopeHomePath(envelope)}`,
    });
    await enqueueEmail(tx, { ...email, to: application.clientEmail, userType: 'customer', applicationId: application.id });
    await recordEnvelopeEvent(tx, { envelopeId: envelope.id, type: 'codeSent', actor, origin: ctx.origin });
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'envelope',
      entityId: envelope.id,
      action: 'signingCodeSent',
      to: { applicationId: application.id, codesSent: envelope.linkCodesSent + 1 },
    });
    return { sentTo: maskEmail(application.clientEmail), expiresAt: new Date(row!.expiresAt!).toISOString() };
  });
}
