import type { Database } from '../../db/connection';
import { envelopeProvider } from '../../esign';
import type { RemoteSigner } from '../../esign/provider';
import { AppError } from '../../errors/app-error';
import * as applicationPolicy from '../../policies/applications';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { findApplication } from '../applications/find-application';
import { applicationTransitions, roleMayTransition, transitionAllowedFrom } from '../../../shared/rules/transitions';
import { findOpenEnvelope } from './envelope-record';
import { providerFailure } from './provider-failure';
import { remoteSignerOf } from './remote-envelopes';

/**
 * POST /docusign/sign: the client opens the signing session; the browser goes to envelopUrl. For the
 * built-in provider it is the portal's signing page with a new single-use, expiring token
 * (docs/decisions.md: 286; only its hash is kept, and a new one replaces the last). For a DocuSign
 * envelope it is DocuSign's recipient view of the embedded signer, asked for before the transaction
 * (docs/decisions.md 524), which sends the client back to their application. The client of the
 * application only (others 404 by scope, other roles 403), once notified (409 otherwise).
 */
export async function signDocuments(ctx: ServiceContext, input: { applicationId: number }): Promise<{ envelopUrl: string }> {
  const { db, actor, config } = ctx;
  const found = await findApplication(db, actor, input.applicationId);
  assertCan(roleMayTransition(applicationTransitions, actor.role, 'customerAccepted'));
  assertCan(applicationPolicy.can(actor, 'sign', found));
  if (!transitionAllowedFrom(applicationTransitions, found.status, 'customerAccepted')) throw new AppError(409, 'conflict');
  const open = await findOpenEnvelope(db, found.id);
  if (!open) throw new AppError(409, 'conflict');

  // The built-in link is made under the locks; DocuSign's view is asked for now, before them.
  let issue: (tx: Database, envelopeId: string) => Promise<{ url: string; expiresAt: Date }>;
  try {
    const provider = envelopeProvider(db, config, open.provider);
    if (provider.signsAt === 'portal') issue = (tx, envelopeId) => provider.signingUrl(tx, { envelopeId });
    else {
      const view = await provider.signingUrl({
        envelopeId: open.id,
        signer: (open.remoteSigner as RemoteSigner | null) ?? remoteSignerOf(found),
        returnUrl: `${config.publicUrl}/applications/${found.id}/details`,
      });
      issue = async () => view;
    }
  } catch (error) {
    throw providerFailure(ctx, error, `the signing view of envelope ${open.id} was not opened`, 'esignProviderRefused');
  }

  return db.transaction(async (tx) => {
    const application = await findApplication(tx, actor, input.applicationId, { forUpdate: true });
    if (!transitionAllowedFrom(applicationTransitions, application.status, 'customerAccepted'))
      throw new AppError(409, 'conflict');
    const envelope = await findOpenEnvelope(tx, application.id, { forUpdate: true });
    // Prepared again meanwhile: the view opened was of an envelope that is no longer the one to sign.
    if (!envelope || envelope.id !== open.id) throw new AppError(409, 'conflict');
    const { url, expiresAt } = await issue(tx, envelope.id);
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'envelope',
      entityId: envelope.id,
      action: 'signingLinkIssued',
      to: { applicationId: application.id, expiresAt: expiresAt.toISOString(), provider: envelope.provider },
    });
    return { envelopUrl: url };
  });
}
