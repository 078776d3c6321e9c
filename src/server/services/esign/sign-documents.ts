import { signingProvider } from '../../esign';
import { AppError } from '../../http/app-error';
import * as applicationPolicy from '../../policies/applications';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { findApplication } from '../applications/find-application';
import { applicationTransitions, roleMayTransition, transitionAllowedFrom } from '../../../shared/rules/transitions';
import { findOpenEnvelope } from './envelope-record';

/**
 * POST /docusign/sign: the client opens the signing session. Answers envelopUrl, the portal's signing
 * page with a new single-use, expiring token (docs/decisions.md: 286); only its hash is kept, and a
 * new one replaces the last. The client of the application only (others 404 by scope, other roles
 * 403), once notified (409 otherwise).
 */
export async function signDocuments(ctx: ServiceContext, input: { applicationId: number }): Promise<{ envelopUrl: string }> {
  const { db, actor, config } = ctx;
  const found = await findApplication(db, actor, input.applicationId);
  assertCan(roleMayTransition(applicationTransitions, actor.role, 'customerAccepted'));
  assertCan(applicationPolicy.can(actor, 'sign', found));
  if (!transitionAllowedFrom(applicationTransitions, found.status, 'customerAccepted')) throw new AppError(409, 'conflict');

  const provider = signingProvider(db, config);
  return db.transaction(async (tx) => {
    const application = await findApplication(tx, actor, input.applicationId, { forUpdate: true });
    if (!transitionAllowedFrom(applicationTransitions, application.status, 'customerAccepted'))
      throw new AppError(409, 'conflict');
    const envelope = await findOpenEnvelope(tx, application.id, { forUpdate: true });
    if (!envelope) throw new AppError(409, 'conflict');
    const { url, expiresAt } = await provider.signingUrl(tx, { envelopeId: envelope.id });
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'envelope',
      entityId: envelope.id,
      action: 'signingLinkIssued',
      to: { applicationId: application.id, expiresAt: expiresAt.toISOString() },
    });
    return { envelopUrl: url };
  });
}
