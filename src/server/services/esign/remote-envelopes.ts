import { envelopeProvider } from '../../esign';
import type { RemoteSigner } from '../../esign/provider';
import type { ServiceContext } from '../context';
import type { ApplicationRow } from '../applications/find-application';

/**
 * The client as DocuSign is told of them (docs/decisions.md 523): their name and email, and a
 * clientUserId naming the portal's client record (no personal data), which makes them an embedded
 * signer: DocuSign emails them nothing and shows the documents only through the portal.
 */
export function remoteSignerOf(application: Pick<ApplicationRow, 'name' | 'surname' | 'clientEmail' | 'clientId'>): RemoteSigner {
  return {
    name: `${application.name} ${application.surname}`.trim(),
    email: application.clientEmail,
    clientUserId: `portal-client-${application.clientId}`,
  };
}

/**
 * Voids envelopes at DocuSign that the portal no longer uses (prepared again, or sent and then not
 * recorded). Best effort, after the portal's own change: the portal's row already says voided, so a
 * failure is only logged; such an envelope cannot be signed anyway, since only the portal can open
 * an embedded signer's view, and DocuSign lets it expire.
 */
export async function voidAtProvider(
  ctx: Pick<ServiceContext, 'db' | 'config' | 'logError'>,
  envelopeIds: readonly string[],
  reason: string,
): Promise<void> {
  for (const envelopeId of envelopeIds) {
    try {
      const provider = envelopeProvider(ctx.db, ctx.config, 'docusign');
      if (provider.signsAt === 'provider') await provider.voidEnvelope({ envelopeId, reason });
    } catch (error) {
      ctx.logError(`the DocuSign envelope ${envelopeId} could not be voided at DocuSign`, error);
    }
  }
}
