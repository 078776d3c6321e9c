import { ECDH } from 'node:crypto';
import { isIP } from 'node:net';
import type { FieldCode } from '../../shared/rules/error-codes';

/** What an endpoint is checked against: production or not, and the push services it may name. */
export interface EndpointRules {
  production: boolean;
  serviceHosts: readonly string[];
}

function isServiceHost(host: string, serviceHosts: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return serviceHosts.some((service) => name === service || name.endsWith(`.${service}`));
}

/**
 * A push endpoint the server will post to (docs/decisions.md 676, 701): an https URL of a push
 * service, never one with credentials in it. In production its host must be one of the push
 * services (`serviceHosts`, with their sub-domains): the browser chooses the endpoint, but whoever
 * calls the API can send any URL, and the server must not be made to post to its own network or
 * anyone else's. Outside production any https host is taken, and http://127.0.0.1 too, for the
 * tests' local push service.
 */
export function endpointCode(endpoint: string, { production, serviceHosts }: EndpointRules): FieldCode | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'httpsRequired';
  }
  if (url.username || url.password) return 'invalid';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol === 'http:') return !production && host === '127.0.0.1' ? null : 'httpsRequired';
  if (url.protocol !== 'https:') return 'httpsRequired';
  if (!production) return null;
  if (isIP(host) !== 0 || url.port !== '') return 'invalid';
  return isServiceHost(host, serviceHosts) ? null : 'pushServiceUnknown';
}

/** The browser's P-256 public key: base64url of an uncompressed point on the curve. */
export function isP256PublicKey(value: string): boolean {
  if (!/^[A-Za-z0-9_-]+=*$/.test(value)) return false;
  const bytes = Buffer.from(value, 'base64url');
  if (bytes.length !== 65 || bytes[0] !== 4) return false;
  try {
    ECDH.convertKey(bytes, 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

/** The browser's authentication secret: base64url of 16 bytes. */
export function isAuthSecret(value: string): boolean {
  return /^[A-Za-z0-9_-]+=*$/.test(value) && Buffer.from(value, 'base64url').length === 16;
}
