import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { applications, envelopes, loans } from '../../db/schema';
import { issueDownloadLink } from '../../files/download-tokens';
import type { ServiceContext } from '../context';
import type { components } from '../../../shared/api/schema';
import type { DocumentType } from '../../../shared/rules/document-types';
import { SIGNING_CODE_MAX_ATTEMPTS } from '../../../shared/rules/esign';
import { toPounds } from '../../../shared/rules/money';
import { countLinkCall } from '../../auth/link-call-limit';
import { envelopeDocumentsOf, findEnvelopeByToken, maskEmail, recordEnvelopeEvent } from './envelope-record';

type SigningSession = components['schemas']['SigningSession'];

/**
 * GET /esign/{token}: what the signing page shows. Each document of the envelope comes with a
 * short-lived download link (the signed copy once signed). The first opening is an envelope event
 * ('opened').
 */
export async function getSigningSession(ctx: ServiceContext, input: { token: string }): Promise<SigningSession> {
  const { db, actor } = ctx;
  await countLinkCall(db, { token: input.token, address: ctx.origin.address });
  const { envelope, application } = await findEnvelopeByToken(ctx, input.token);
  if (envelope.status !== 'signed') {
    const opened = await db
      .update(envelopes)
      .set({ linkOpenedAt: sql`now()` })
      .where(and(eq(envelopes.id, envelope.id), isNull(envelopes.linkOpenedAt)))
      .returning({ id: envelopes.id });
    if (opened.length > 0) await recordEnvelopeEvent(db, { envelopeId: envelope.id, type: 'opened', actor, origin: ctx.origin });
  }
  const [codeLive] = envelope.codeHash
    ? await db
        .select({ id: envelopes.id })
        .from(envelopes)
        .where(and(eq(envelopes.id, envelope.id), gt(envelopes.codeExpiresAt, sql`now()`)))
    : [];
  const documents = [];
  for (const document of await envelopeDocumentsOf(db, envelope.id)) {
    const fileId = envelope.status === 'signed' && document.signedFileId ? document.signedFileId : document.fileId;
    const fileName =
      envelope.status === 'signed' ? document.file.fileName.replace(/\.pdf$/, ' - signed.pdf') : document.file.fileName;
    documents.push({
      type: document.type as DocumentType,
      title: document.title,
      sha256: document.sha256,
      download: await issueDownloadLink(db, actor, { kind: 'file', applicationId: application.id, fileId }, fileName),
    });
  }
  const [{ caseRef = null } = {}] = await db
    .select({ caseRef: applications.caseRef })
    .from(applications)
    .where(eq(applications.id, application.id));
  // A variation names its figure and the loan's signed facility now (before signing, the one it replaces).
  const [loan] =
    envelope.kind === 'variation' && envelope.loanId !== null
      ? await db.select({ id: loans.id, amountPence: loans.amountPence }).from(loans).where(eq(loans.id, envelope.loanId))
      : [];
  return {
    envelopeId: envelope.id,
    kind: envelope.kind === 'variation' ? 'variation' : 'contract',
    variation:
      loan && envelope.amountPence !== null
        ? { loanId: loan.id, amount: toPounds(envelope.amountPence), signedAmount: toPounds(loan.amountPence) }
        : null,
    applicationId: application.id,
    caseRef,
    signerName: `${application.name} ${application.surname}`.trim(),
    signerEmail: maskEmail(application.clientEmail),
    status: envelope.status === 'signed' ? 'signed' : 'ready',
    documents,
    codeExpiresAt:
      codeLive && envelope.codeExpiresAt && envelope.codeAttempts < SIGNING_CODE_MAX_ATTEMPTS
        ? envelope.codeExpiresAt.toISOString()
        : null,
    signedAt: envelope.signedAt ? envelope.signedAt.toISOString() : null,
    loanId: loan?.id ?? application.loanId ?? null,
  };
}
