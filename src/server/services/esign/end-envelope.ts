import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import { applications, envelopes } from '../../db/schema';
import { recordAudit } from '../audit';
import type { PublicContext } from '../context';
import { loanById, lockLoan } from '../loans/find-loan';
import { tellParties } from '../loans/loan-parties';
import { formatMoney } from '../../../shared/rules/formats';
import { loanReference } from '../../../shared/rules/loan-reference';
import { toPounds } from '../../../shared/rules/money';
import type { ApplicationStatus } from '../../../shared/rules/statuses';
import { recordEnvelopeEvent, type EnvelopeRow } from './envelope-record';
import { recordProviderEvent, type ConnectOutcome, type ProviderEventKey } from './provider-events';

/**
 * The statuses an application waits in for its envelope to be signed; the one it goes back to
 * when the envelope can no longer be signed, where staff prepare the documents again (decision 530).
 */
const WAITING_FOR_SIGNATURE: readonly ApplicationStatus[] = ['esignPrepared', 'customerNotified'];
const BACK_TO: ApplicationStatus = 'providerAccepted';

/** What each party is told: the words are ours (the spec has none for this). */
function notice(ended: 'declined' | 'voided', reason: string | undefined, applicationId: number) {
  const because = reason ? ` The reason given: “${reason}”.` : '';
  const path = `/applications/${applicationId}/details`;
  if (ended === 'declined')
    return {
      staff: {
        subject: 'The client declined to sign the documents',
        heading: 'The client declined to sign',
        body: `The client declined to sign the documents in DocuSign.${because} The application is back at the provider's acceptance: the documents can be prepared again ('prepare docusign') once this is resolved.`,
        action: 'View application',
        path,
      },
      customer: {
        subject: 'You declined to sign your documents',
        heading: 'You declined to sign your documents',
        body: 'You declined to sign the documents in DocuSign, so nothing was signed. We will be in touch about what happens next. If you no longer wish to proceed, you can say so on your application.',
        action: 'View application',
        path,
      },
    };
  return {
    staff: {
      subject: 'The signature envelope was voided in DocuSign',
      heading: 'The documents can no longer be signed',
      body: `DocuSign voided the envelope of this application's documents, so they can no longer be signed.${because} The application is back at the provider's acceptance: prepare the documents again ('prepare docusign') and notify the client.`,
      action: 'View application',
      path,
    },
    customer: {
      subject: 'Your documents can no longer be signed',
      heading: 'Your documents can no longer be signed',
      body: 'The documents sent for your signature can no longer be signed, so nothing was signed. We will prepare them again and let you know when they are ready.',
      action: 'View application',
      path,
    },
  };
}

/**
 * envelope-declined / envelope-voided (docs/decisions.md 530): under the application's and the
 * envelope's locks, an envelope still open ends `declined` or `voided` (with DocuSign's reason in its
 * event), and, if it is the application's envelope and the application is waiting for it, the
 * application goes back to providerAccepted, so staff can prepare the documents again; staff, the
 * lawyer and the client are told. The event is recorded in the same transaction. An envelope that
 * has already ended (voided by the portal when it prepared another, signed) changes nothing.
 */
export async function endEnvelope(
  ctx: PublicContext,
  envelope: EnvelopeRow,
  key: ProviderEventKey,
  ending: { status: 'declined' | 'voided'; reason: string | undefined },
): Promise<ConnectOutcome> {
  const { status, reason } = ending;
  if (envelope.kind === 'variation') return endVariation(ctx, envelope, key, ending);
  return ctx.db.transaction(async (tx) => {
    const [application] = await tx.select().from(applications).where(eq(applications.id, envelope.applicationId)).for('update');
    if (!application) return { outcome: 'ignored' };
    const ended = await endLockedEnvelope(tx, envelope.id, key, ending, {});
    if ('outcome' in ended) return ended;
    const locked = ended.envelope;
    const waiting = (WAITING_FOR_SIGNATURE as readonly string[]).includes(application.status);
    if (application.envelopeId === locked.id && waiting) {
      await tx
        .update(applications)
        .set({ status: BACK_TO, updatedAt: sql`now()` })
        .where(eq(applications.id, application.id));
      await recordAudit(tx, {
        actorUserId: null,
        entityType: 'application',
        entityId: application.id,
        action: status === 'declined' ? 'envelopeDeclined' : 'envelopeVoided',
        from: { status: application.status, envelopeId: locked.id },
        to: { status: BACK_TO, envelopeId: locked.id, ...(reason ? { reason } : {}) },
      });
      const words = notice(status, reason, application.id);
      await tellParties(tx, ctx.config, application.id, ['admin', 'lawyer'], () => words.staff);
      await tellParties(tx, ctx.config, application.id, ['customer'], () => words.customer);
    }
    return { outcome: 'recorded' };
  });
}

/**
 * A variation declined or voided at DocuSign (docs/decisions.md, 536): under the loan's and the
 * envelope's locks (the order every change of the facility takes them), an envelope still open ends
 * `declined` or `voided`, with DocuSign's reason. The loan's signed credit is unchanged and its
 * pending figure stays, waiting: staff send a new variation by setting the figure again (as after
 * migration 0013's restatement, 512). Staff, the lawyer and the client are told; the application is
 * not touched. The event is recorded in the same transaction.
 */
async function endVariation(
  ctx: PublicContext,
  envelope: EnvelopeRow,
  key: ProviderEventKey,
  ending: { status: 'declined' | 'voided'; reason: string | undefined },
): Promise<ConnectOutcome> {
  const { status, reason } = ending;
  if (envelope.loanId === null) return { outcome: 'ignored' };
  const loanId = envelope.loanId;
  return ctx.db.transaction(async (tx) => {
    await lockLoan(tx, loanId);
    const ended = await endLockedEnvelope(tx, envelope.id, key, ending, { loanId });
    if ('outcome' in ended) return ended;
    const loan = await loanById(tx, loanId);
    const reference = loanReference(loan.id);
    const signed = formatMoney(toPounds(loan.amountPence));
    const because = reason ? ` The reason given: “${reason}”.` : '';
    const what = status === 'declined' ? 'declined to sign' : 'could no longer sign';
    const path = `/loans/${loan.id}`;
    await tellParties(tx, ctx.config, loan.applicationId, ['admin', 'lawyer'], () => ({
      subject: `Loan ${reference}: the variation was not signed`,
      heading: 'The variation was not signed',
      body: `The client ${what} the variation of loan ${reference} in DocuSign.${because} The credit offered stays ${signed}. Staff can send a new variation by setting the loan facility again.`,
      action: 'Open loan',
      path,
    }));
    await tellParties(tx, ctx.config, loan.applicationId, ['customer'], () => ({
      subject: `Your loan ${reference}: the variation was not signed`,
      heading: 'The variation was not signed',
      body: `The variation of your loan ${reference} was not signed, so your credit stays ${signed}. We will be in touch about what happens next.`,
      action: 'Open loan',
      path,
    }));
    return { outcome: 'recorded' };
  });
}

/**
 * Under the caller's locks: an envelope still open ends `declined` or `voided`, with its event and
 * audit, once per Connect event (a replay, or an envelope ended otherwise, answers its outcome).
 */
async function endLockedEnvelope(
  tx: Database,
  envelopeId: string,
  key: ProviderEventKey,
  { status, reason }: { status: 'declined' | 'voided'; reason: string | undefined },
  auditTo: Record<string, unknown>,
): Promise<ConnectOutcome | { envelope: EnvelopeRow }> {
  const [locked] = await tx.select().from(envelopes).where(eq(envelopes.id, envelopeId)).for('update');
  if (!locked) return { outcome: 'ignored' };
  if (locked.status !== 'created' && locked.status !== 'notified')
    return { outcome: locked.status === status ? 'replayed' : 'ignored' };
  if (!(await recordProviderEvent(tx, key))) return { outcome: 'replayed' };

  await tx.update(envelopes).set({ status, linkTokenHash: null, codeHash: null }).where(eq(envelopes.id, locked.id));
  const detail = { by: 'docusign', connectEvent: key.event, generatedDateTime: key.generatedAt, ...(reason ? { reason } : {}) };
  await recordEnvelopeEvent(tx, { envelopeId: locked.id, type: status, detail });
  await recordAudit(tx, {
    actorUserId: null,
    entityType: 'envelope',
    entityId: locked.id,
    action: status === 'declined' ? 'envelopeDeclined' : 'envelopeVoided',
    from: { status: locked.status },
    to: { status, ...auditTo, ...detail },
  });
  return { envelope: locked };
}
