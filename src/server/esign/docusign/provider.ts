import type { DocusignConfig } from '../../config';
import type { RemoteSigningProvider } from '../provider';
import { docusignClient } from './client';
import { CONNECT_EVENTS } from './connect';

/** Where DocuSign Connect posts the envelope's events (the contract's POST /docusign/connect). */
export const connectPath = '/api/docusign/connect';
/** DocuSign's recipient view works for five minutes (and once). */
const RECIPIENT_VIEW_MS = 5 * 60_000;

/**
 * DocuSign as the signing provider (docs/decisions.md 520-534): the envelope is sent with the
 * client as its one embedded signer (clientUserId set: DocuSign emails them nothing, they sign
 * from the portal), each document carrying a signature field where its 'Signature' section says
 * who signs, and a Connect subscription of its own (JSON SIM, HMAC, acknowledged) for completed,
 * declined and voided.
 */
export function docusignProvider(config: DocusignConfig, publicUrl: string): RemoteSigningProvider {
  const api = docusignClient(config);
  return {
    name: 'docusign',
    signsAt: 'provider',

    async sendEnvelope({ documents, signer }) {
      const envelopeId = await api.createEnvelope({
        emailSubject: 'Please sign your loan documents',
        status: 'sent',
        documents: documents.map((document, i) => ({
          documentId: String(i + 1),
          name: document.title,
          fileExtension: 'pdf',
          order: String(i + 1),
          documentBase64: Buffer.from(document.pdf).toString('base64'),
        })),
        recipients: {
          signers: [
            {
              recipientId: '1',
              routingOrder: '1',
              name: signer.name,
              email: signer.email,
              clientUserId: signer.clientUserId,
              tabs: {
                // Each document that asks for a signature says 'Signed electronically by …' under
                // its 'Signature' heading; the Pre-Contract Credit Information asks for none.
                signHereTabs: [
                  {
                    anchorString: 'Signed electronically by',
                    anchorUnits: 'pixels',
                    anchorYOffset: '36',
                    anchorXOffset: '0',
                    anchorIgnoreIfNotPresent: 'true',
                  },
                ],
              },
            },
          ],
        },
        eventNotification: {
          url: `${publicUrl}${connectPath}`,
          deliveryMode: 'SIM',
          events: [...CONNECT_EVENTS],
          eventData: { version: 'restv2.1', format: 'json', includeData: ['recipients'] },
          includeHMAC: 'true',
          requireAcknowledgment: 'true',
          loggingEnabled: 'true',
        },
      });
      return { envelopeId };
    },

    async signingUrl({ envelopeId, signer, returnUrl }) {
      const expiresAt = new Date(Date.now() + RECIPIENT_VIEW_MS);
      const url = await api.recipientView(envelopeId, {
        // The client signed in to the portal with their email and password.
        authenticationMethod: 'Password',
        clientUserId: signer.clientUserId,
        userName: signer.name,
        email: signer.email,
        recipientId: '1',
        returnUrl,
      });
      return { url, expiresAt };
    },

    async signedCopies({ envelopeId, count }) {
      const ids = Array.from({ length: count }, (_, i) => String(i + 1));
      const [certificate, ...documents] = await Promise.all(
        ['certificate', ...ids].map((documentId) => api.document(envelopeId, documentId)),
      );
      return { documents, certificate: certificate! };
    },

    async voidEnvelope({ envelopeId, reason }) {
      await api.voidEnvelope(envelopeId, reason);
    },
  };
}
