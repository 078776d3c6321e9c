import * as v from 'valibot';
import { atom } from 'jotai';
import { api } from '../api/client';
import { providerRoles } from '../../shared/rules/provider-identity';
import type { AppStore } from './session';

/**
 * Brand settings for the header, footer and document title (`GET /config`, public). The last answer
 * is kept in localStorage so the shell renders offline with the right name and contact details.
 */
const brandSchema = v.object({
  productName: v.string(),
  phone: v.string(),
  email: v.string(),
  termsUrl: v.string(),
  privacyUrl: v.string(),
  companyName: v.string(),
  // Optional for the copy a device saved before the provider's role was a setting: its name and
  // contact details still show offline after an update (the next answer fills these in).
  providerRole: v.optional(v.picklist(providerRoles), 'lender'),
  lenderName: v.optional(v.string(), ''),
});
export type Brand = v.InferOutput<typeof brandSchema>;

/** Until the server has answered once: no contact details rather than invented ones. */
const DEFAULT_BRAND: Brand = {
  productName: 'Litigation Funding Portal',
  phone: '',
  email: '',
  termsUrl: '',
  privacyUrl: '',
  companyName: '',
  providerRole: 'lender',
  lenderName: '',
};

const CACHE_KEY = 'brandConfig';

export const brandAtom = atom<Brand>(DEFAULT_BRAND);

export function readCachedBrand(): Brand {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    if (!raw) return DEFAULT_BRAND;
    const parsed = v.safeParse(brandSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : DEFAULT_BRAND;
  } catch {
    return DEFAULT_BRAND;
  }
}

export async function refreshBrand(store: AppStore): Promise<void> {
  try {
    const { data } = await api.GET('/config');
    const parsed = v.safeParse(brandSchema, data);
    if (!parsed.success) return;
    // Unchanged settings keep the same state: no render of the whole page for nothing (decision 367).
    if (JSON.stringify(store.get(brandAtom)) !== JSON.stringify(parsed.output)) store.set(brandAtom, parsed.output);
    try {
      localStorage.setItem(CACHE_KEY, JSON.stringify(parsed.output));
    } catch {
      // Storage unavailable: the shell falls back to the defaults next time.
    }
  } catch {
    // Offline: keep the cached settings.
  }
}

/** Only http(s) addresses become links (the setting is edited by staff, not trusted as a URL). */
export function safeExternalUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}
