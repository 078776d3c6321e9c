import { vapidKeys } from '../../push/vapid';
import type { ServiceContext } from '../context';

/** The VAPID public key a browser subscribes with; the private key is never served. */
export async function pushPublicKey({ db, config }: ServiceContext): Promise<{ publicKey: string }> {
  return { publicKey: (await vapidKeys(db, config)).publicKey };
}
