import type { Database } from '../../db/connection';
import { envelopeProvider } from '../../esign';
import type { RemoteSigner } from '../../esign/provider';
import { AppError } from '../../errors/app-error';
import * as loanPolicy from '../../policies/loans';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { findApplication } from '../applications/find-application';
import { providerFailure } from '../esign/provider-failure';
import { remoteSignerOf } from '../esign/remote-envelopes';
import { findOpenVariation } from '../esign/variation-envelope';
import { findLoan, lockLoan, type LoanRow } from './find-loan';
import { loanFacts } from './present-loan';

function assertPending(loan: LoanRow): void {
  if (!loanPolicy.isAllowedNow('signVariation', loanFacts(loan))) throw new AppError(409, 'variationNotPending');
}

/**
 * POST /loans/{id}/variation/sign: the client opens the signing session of their loan's pending
 * variation, as 'sign documents' does for the application's (docs/decisions.md, 507, 510, 536): for
 * the built-in provider, the portal's signing page with a new single-use, 30-minute token (only its
 * hash kept; a new one replaces the last); for a variation sent to DocuSign, DocuSign's recipient
 * view, asked for before the transaction, which brings the client back to their loan. The envelope
 * is opened by the provider that made it. The loan's own client only (others 404 by scope, other
 * roles 403); 409 `variationNotPending` when no variation waits (signed, or withdrawn meanwhile).
 */
export async function signLoanVariation(ctx: ServiceContext, input: { id: number }): Promise<{ envelopUrl: string }> {
  const { db, actor, config } = ctx;
  const found = await findLoan(db, actor, input.id);
  assertCan(loanPolicy.can(actor, 'signVariation', found));
  assertPending(found);
  const open = await findOpenVariation(db, found.id);
  if (!open) throw new AppError(409, 'variationNotPending');

  // The built-in link is made under the locks; DocuSign's view is asked for now, before them.
  let issue: (tx: Database, envelopeId: string) => Promise<{ url: string; expiresAt: Date }>;
  try {
    const provider = envelopeProvider(db, config, open.provider);
    if (provider.signsAt === 'portal') issue = (tx, envelopeId) => provider.signingUrl(tx, { envelopeId });
    else {
      const signer =
        (open.remoteSigner as RemoteSigner | null) ?? remoteSignerOf(await findApplication(db, actor, found.applicationId));
      const view = await provider.signingUrl({
        envelopeId: open.id,
        signer,
        returnUrl: `${config.publicUrl}/loans/${found.id}`,
      });
      issue = async () => view;
    }
  } catch (error) {
    throw providerFailure(ctx, error, `the signing view of variation ${open.id} was not opened`, 'esignProviderRefused');
  }

  return db.transaction(async (tx) => {
    await lockLoan(tx, input.id);
    const loan = await findLoan(tx, actor, input.id);
    assertPending(loan);
    const envelope = await findOpenVariation(tx, loan.id, { forUpdate: true });
    if (!envelope) throw new AppError(409, 'variationNotPending');
    // Replaced by a newer raise meanwhile: the view opened was of a variation no longer to be signed.
    if (envelope.id !== open.id) throw new AppError(409, 'conflict');
    const { url, expiresAt } = await issue(tx, envelope.id);
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'envelope',
      entityId: envelope.id,
      action: 'signingLinkIssued',
      to: {
        applicationId: loan.applicationId,
        loanId: loan.id,
        expiresAt: expiresAt.toISOString(),
        provider: envelope.provider,
      },
    });
    return { envelopUrl: url };
  });
}
