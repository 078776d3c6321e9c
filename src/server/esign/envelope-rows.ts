import { envelopeDocuments, envelopeEvents, envelopes } from '../db/schema';
import type { Database } from '../db/connection';
import type { EnvelopeDocumentInput, RemoteSigner } from './provider';

/**
 * Records an envelope (in the caller's transaction): its row, each document as prepared with its
 * SHA-256, and the `created` event. The id is the built-in provider's own UUID, or the id the
 * remote provider gave the envelope it was sent (docs/decisions.md 523).
 */
export async function insertEnvelope(
  tx: Database,
  input: {
    id: string;
    provider: 'builtin' | 'docusign';
    applicationId: number;
    createdBy: number;
    documents: readonly EnvelopeDocumentInput[];
    /** The signer as the remote provider was told (DocuSign's recipient view must name them the same). */
    remoteSigner?: RemoteSigner;
  },
): Promise<void> {
  await tx.insert(envelopes).values({
    id: input.id,
    applicationId: input.applicationId,
    provider: input.provider,
    createdBy: input.createdBy,
    remoteSigner: input.remoteSigner ?? null,
  });
  await tx.insert(envelopeDocuments).values(
    input.documents.map((document, position) => ({
      envelopeId: input.id,
      position,
      type: document.type,
      fileId: document.fileId,
      sha256: document.sha256,
    })),
  );
  await tx.insert(envelopeEvents).values({ envelopeId: input.id, type: 'created', userId: input.createdBy });
}
