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

/** The signer as a provider that signs on its own pages knows them: the same three on every call. */
export interface RemoteSigner {
  name: string;
  email: string;
  /** Makes the signer embedded (signing from the portal, never emailed by the provider). */
  clientUserId: string;
}

/**
 * An electronic-signature provider (docs/decisions.md 283, 522), chosen for new envelopes by
 * ESIGN_PROVIDER; an envelope is always finished by the provider that made it. Where the client
 * signs decides how a signature comes back, so the two kinds are told apart by `signsAt`.
 */
export type SigningProvider = PortalSigningProvider | RemoteSigningProvider;

/** The built-in provider: the client signs on the portal's own page and the portal seals the copies there and then. */
export interface PortalSigningProvider {
  readonly name: 'builtin';
  readonly signsAt: 'portal';
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

/**
 * A provider that signs on its own pages (DocuSign): the documents are sent to it, the client is
 * sent to it to sign, and it reports the outcome later (its webhook) and keeps the signed copies.
 * Every method asks the provider over the network, so none is called inside a transaction; each
 * throws ProviderUnavailable or ProviderRefused, and changes nothing in the portal.
 */
export interface RemoteSigningProvider {
  readonly name: 'docusign';
  readonly signsAt: 'provider';
  /** Sends the documents, in order, to be signed by the signer; answers the provider's envelope id. */
  sendEnvelope(input: {
    documents: readonly { title: string; pdf: Uint8Array }[];
    signer: RemoteSigner;
  }): Promise<{ envelopeId: string }>;
  /** Where the signer signs now (a short-lived address), and where the provider sends them back to. */
  signingUrl(input: { envelopeId: string; signer: RemoteSigner; returnUrl: string }): Promise<{ url: string; expiresAt: Date }>;
  /** A completed envelope's signed documents, in the order sent, and the provider's certificate of completion. */
  signedCopies(input: { envelopeId: string; count: number }): Promise<{ documents: Uint8Array[]; certificate: Uint8Array }>;
  /** Voids an envelope that will not be signed (the portal prepared another one). */
  voidEnvelope(input: { envelopeId: string; reason: string }): Promise<void>;
}

/** The provider did not answer in time, could not be reached, or failed (5xx): trying again later may work. */
export class ProviderUnavailable extends Error {
  override name = 'ProviderUnavailable';
}

/** The provider answered and said no (4xx): trying again unchanged will not help. */
export class ProviderRefused extends Error {
  override name = 'ProviderRefused';
  constructor(
    message: string,
    readonly status: number,
    readonly errorCode?: string,
  ) {
    super(message);
  }
}
