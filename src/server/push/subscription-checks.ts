import { ECDH } from 'node:crypto';
import { isIP } from 'node:net';
import type { FieldCode } from '../../shared/rules/error-codes';

/**
 * A push endpoint the server will post to (docs/decisions.md 676): an https URL of a push
 * service, never one with credentials in it; in production its host must be a name, not an
 * address or localhost (real push services are named hosts, and the server must not be made to
 * post to its own network). Outside production http://127.0.0.1 is also taken, for the tests'
 * local push service.
 */
export function endpointCode(endpoint: string, production: boolean): FieldCode | null {
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
  if (production && (isIP(host) !== 0 || host === 'localhost' || host.endsWith('.localhost'))) return 'invalid';
  return null;
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
