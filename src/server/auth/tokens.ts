import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** Session tokens: 256 random bits, base64url. Only their SHA-256 is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Invitation and reset links carry a random UUID v4 (122 random bits); only its hash is stored. */
export function newLinkToken(): string {
  return randomUUID();
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
