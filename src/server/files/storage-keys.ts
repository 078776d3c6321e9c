import { randomBytes } from 'node:crypto';

/** Keys are made by the server: a two-character shard and a random name. Nothing else is accepted. */
export const KEY_PATTERN = /^[a-f0-9]{2}\/[a-f0-9]{32}\.pdf$/;
/** A partial write: the key, then twelve hex digits that tell writes apart, then `.part`. */
export const PARTIAL_PATTERN = /^[a-f0-9]{2}\/[a-f0-9]{32}\.pdf\.[a-f0-9]{12}\.part$/;

export function newFileKey(): string {
  const name = randomBytes(16).toString('hex');
  return `${name.slice(0, 2)}/${name}.pdf`;
}

export function checkKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
}
