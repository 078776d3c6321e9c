import type { Config } from '../config';
import type { Database } from '../db/connection';
import { builtinProvider } from './builtin';
import { docusignProvider } from './docusign/provider';
import { ProviderUnavailable, type SigningProvider } from './provider';

/** The provider ESIGN_PROVIDER names: new envelopes are made with it (docs/decisions.md 283, 522). */
export function signingProvider(db: Database, config: Config): SigningProvider {
  return envelopeProvider(db, config, config.esign.provider);
}

/**
 * The provider that made an envelope (its `provider` column), which alone can finish it: an
 * envelope made before ESIGN_PROVIDER changed is still signed where it was sent. A DocuSign
 * envelope while DocuSign is no longer configured cannot be reached (ProviderUnavailable).
 */
export function envelopeProvider(db: Database, config: Config, name: string): SigningProvider {
  if (name === 'builtin') return builtinProvider(db, config);
  if (name === 'docusign' && config.esign.docusign) return docusignProvider(config.esign.docusign, config.publicUrl);
  throw new ProviderUnavailable(
    `envelopes of the provider "${name}" cannot be reached: ESIGN_PROVIDER is ${config.esign.provider}`,
  );
}

export type { PortalSigningProvider, RemoteSigningProvider, SigningProvider } from './provider';
export { ProviderRefused, ProviderUnavailable } from './provider';
