import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service of our own on 127.0.0.1 (headless Chromium cannot subscribe through a real one):
 * it takes the server's POSTs, and each test subscriber decrypts what it was sent (RFC 8291,
 * aes128gcm) with the private key only it holds, as a browser would.
 */

export interface Delivery {
  path: string;
  authorization: string;
  payload: Record<string, unknown>;
}

export interface Subscriber {
  /** What subscribePush takes (endpoint, keys). */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The messages this subscriber received, decrypted, oldest first. */
  received: () => Delivery[];
}

/** RFC 8291: the content-encryption key and nonce from the sender's key, our key pair and secret. */
function decrypt(body: Buffer, privateKey: ReturnType<typeof createECDH>, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const secret = privateKey.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), privateKey.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, auth, keyInfo, 32));
  const key = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', key, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

export class LocalPushService {
  private server: Server | null = null;
  private readonly bodies = new Map<string, { authorization: string; body: Buffer }[]>();
  private origin = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        const list = this.bodies.get(path) ?? [];
        list.push({ authorization: String(request.headers.authorization ?? ''), body: Buffer.concat(chunks) });
        this.bodies.set(path, list);
        response.writeHead(201).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A browser's subscription made here: a P-256 key pair and an auth secret, its own endpoint. */
  subscriber(name: string): Subscriber {
    const keys = createECDH('prime256v1');
    keys.generateKeys();
    const auth = randomBytes(16);
    const path = `/push/${name}-${randomBytes(4).toString('hex')}`;
    return {
      subscription: {
        endpoint: `${this.origin}${path}`,
        keys: { p256dh: keys.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      },
      received: () =>
        (this.bodies.get(path) ?? []).map(({ authorization, body }) => ({
          path,
          authorization,
          payload: JSON.parse(decrypt(body, keys, auth)) as Record<string, unknown>,
        })),
    };
  }
}
