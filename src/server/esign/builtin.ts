import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db/connection';
import { envelopes } from '../db/schema';
import { insertEnvelope } from './envelope-rows';
import { sealWithPades } from './pades-seal';
import type { PortalSigningProvider } from './provider';

/** How long a signing link works (docs/decisions.md: 286). */
export const SIGNING_LINK_TTL_MS = 30 * 60 * 1000;

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The built-in provider: envelopes in the portal's own tables, signing on the portal's signing page
 * (/esign/{token}) with an emailed one-time code, and PAdES baseline signatures made with the
 * provider's certificate (docs/decisions.md: 283-285, 475-479).
 */
export function builtinProvider(db: Database, config: Config): PortalSigningProvider {
  return {
    name: 'builtin',
    signsAt: 'portal',

    async createEnvelope(tx, { applicationId, createdBy, documents }) {
      const envelopeId = randomUUID();
      await insertEnvelope(tx, { id: envelopeId, provider: 'builtin', applicationId, createdBy, documents });
      return { envelopeId };
    },

    async signingUrl(tx, { envelopeId }) {
      const token = randomBytes(32).toString('base64url');
      const [row] = await tx
        .update(envelopes)
        .set({
          linkTokenHash: sha256Hex(token),
          linkExpiresAt: sql`now() + ${SIGNING_LINK_TTL_MS} * interval '1 millisecond'`,
          linkOpenedAt: null,
          linkCodesSent: 0,
          codeHash: null,
          codeExpiresAt: null,
          codeAttempts: 0,
        })
        .where(eq(envelopes.id, envelopeId))
        .returning({ expiresAt: envelopes.linkExpiresAt });
      return { url: `/esign/${token}`, expiresAt: new Date(row!.expiresAt!) };
    },

    async complete({ envelopeId, documents, signer }) {
      return sealWithPades(db, config, {
        envelopeId,
        documents: documents.map((d) => ({ pdf: d.pdf, title: d.title, sha256: d.sha256 })),
        signer: {
          name: signer.name,
          email: signer.email,
          address: signer.address,
          device: signer.device,
          signedAt: signer.signedAt.toISOString(),
        },
        provider: { name: config.provider.name, email: config.provider.email },
      });
    },
  };
}
