import type { components } from '../api/schema';

/**
 * The provider's legal role, configured once (PROVIDER_ROLE; docs/decisions.md 495-497): the
 * company that runs the portal either lends itself, or is a credit broker for a lender named
 * apart. The footer, every email and every generated document say it with the words below.
 */
export type ProviderRole = components['schemas']['BrandConfig']['providerRole'];

export const providerRoles = ['lender', 'broker'] as const satisfies readonly ProviderRole[];

/**
 * Who the portal names, its role, and who makes the loans (the provider itself when its role is
 * lender): the fields of GET /config that the client keeps and the server's brand settings hold.
 */
export type ProviderIdentity = Pick<components['schemas']['BrandConfig'], 'companyName' | 'providerRole' | 'lenderName'>;

/**
 * The one sentence that states the provider's role. A lender is named the lender, as its Credit
 * Agreement names it; a broker keeps the spec's footer words and names the lender.
 */
export function providerRoleStatement(identity: ProviderIdentity): string {
  if (identity.providerRole === 'lender') return `${identity.companyName} is the lender of the loans made through this portal.`;
  return `${identity.companyName} is a credit broker and not a lender. The loans are made by ${identity.lenderName}.`;
}
