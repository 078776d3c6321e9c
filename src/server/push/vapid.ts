import { sql } from 'drizzle-orm';
import webpush from 'web-push';
import type { Config } from '../config';
import { queryRows, type Database } from '../db/connection';

export interface VapidKeys {
  /** base64url, the uncompressed P-256 point: the browser's applicationServerKey. */
  publicKey: string;
  /** base64url; never leaves the server. */
  privateKey: string;
}

const made = new WeakMap<Database, Promise<VapidKeys>>();

/**
 * The server's VAPID key pair (docs/decisions.md 675): from the configuration when it gives one;
 * otherwise the pair in the database, made by the first process that asks (at its start). Several
 * processes starting together each offer a pair; the first insert wins and all read the same row.
 */
export function vapidKeys(db: Database, config: Config): Promise<VapidKeys> {
  if (config.push.vapidKeys) return Promise.resolve(config.push.vapidKeys);
  let keys = made.get(db);
  if (!keys) {
    keys = storedOrMadeKeys(db);
    made.set(db, keys);
    keys.catch(() => made.delete(db));
  }
  return keys;
}

async function storedOrMadeKeys(db: Database): Promise<VapidKeys> {
  const offered = webpush.generateVAPIDKeys();
  await db.execute(sql`insert into push_vapid_keys (id, public_key, private_key)
    values (1, ${offered.publicKey}, ${offered.privateKey}) on conflict (id) do nothing`);
  const [row] = await queryRows<{ public_key: string; private_key: string }>(
    db,
    sql`select public_key, private_key from push_vapid_keys where id = 1`,
  );
  if (!row) throw new Error('the VAPID key pair could not be stored');
  return { publicKey: row.public_key, privateKey: row.private_key };
}
