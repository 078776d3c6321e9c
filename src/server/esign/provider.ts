import type { Config } from '../config';
import type { Database } from '../db/connection';
import type { SealedDocument } from './pades-seal';
import type { ContractDocumentType } from '../../shared/rules/document-types';

/** A document put in an envelope: the stored file as prepared, and its SHA-256. */
export interface EnvelopeDocumentInput {
  type: ContractDocumentType;
  title: string;
  fileId: number;
  sha256: string;
}

/** The signer as recorded on the certificate page. */
export interface Signer {
  userId: number;
  name: string;
  email: string;
  address: string;
  device: string;
  signedAt: Date;
}

/**
 * An electronic-signature provider (docs/decisions.md: 283). The built-in one is complete on its
 * own; DocuSign can be added behind the same interface and chosen by ESIGN_PROVIDER.
 */
export interface SigningProvider {
  readonly name: Config['esign']['provider'];
  /** Makes the envelope of the documents (in the caller's transaction) and answers its id. */
  createEnvelope(
    db: Database,
    input: { applicationId: number; createdBy: number; documents: readonly EnvelopeDocumentInput[] },
  ): Promise<{ envelopeId: string }>;
  /** Where the signer signs: a single-use, expiring address; a new one replaces the last. */
  signingUrl(db: Database, input: { envelopeId: string }): Promise<{ url: string; expiresAt: Date }>;
  /**
   * The signed copies of the documents, in order (made off the event loop), each with the PAdES
   * level it reached and whether a time-stamp is still owed (docs/decisions.md 479).
   */
  complete(input: {
    envelopeId: string;
    documents: readonly { pdf: Uint8Array; title: string; sha256: string }[];
    signer: Signer;
  }): Promise<SealedDocument[]>;
}
