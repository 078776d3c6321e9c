import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service on 127.0.0.1 for the API tests: it takes what the server's push sender posts,
 * checks the VAPID authorization as RFC 8292 asks (an ES256 JWT signed by the `k` key, `aud` the
 * endpoint's origin, `exp` within 24 hours, a `sub` contact) and decrypts the aes128gcm body as
 * RFC 8291 says, with the browser's private key and auth secret that `device()` made. Nothing is
 * taken from the library the server sends with: the checks are written here from the RFCs.
 */

/** A browser's subscription, made here: its P-256 key pair and 16-byte auth secret. */
export interface Device {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** What this device's push service answers next (201 unless told). */
  answers: number[];
  /** Never answer: a push service that hangs. */
  hang: boolean;
  privateKey: Buffer;
  publicKey: Buffer;
  authSecret: Buffer;
}

export interface Delivery {
  endpoint: string;
  status: number;
  /** The decrypted JSON, for a request that was answered 2xx. */
  message: Record<string, unknown> | undefined;
  /** The VAPID claims and key, as checked. */
  vapid: { aud: string; exp: number; sub: string; k: string };
  ttl: string | undefined;
}

export interface LocalPushService {
  origin: string;
  device(): Device;
  /** Every request received, in order; `take()` returns those since the last take. */
  received: Delivery[];
  take(): Delivery[];
  /** Requests that failed a check (a bad JWT, a body that does not decrypt): must stay empty. */
  faults: string[];
  close(): Promise<void>;
}

export async function startLocalPushService(): Promise<LocalPushService> {
  const devices = new Map<string, Device>();
  const received: Delivery[] = [];
  const faults: string[] = [];
  let taken = 0;
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      const device = devices.get(path);
      if (!device || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      try {
        const vapid = checkVapid(String(req.headers.authorization ?? ''), `${origin}`);
        if (req.headers['content-encoding'] !== 'aes128gcm')
          throw new Error(`content-encoding ${req.headers['content-encoding']}`);
        const body = Buffer.concat(chunks);
        if (device.hang) {
          hanging.add(res);
          return;
        }
        const status = device.answers.shift() ?? 201;
        const ok = status >= 200 && status < 300;
        received.push({
          endpoint: device.endpoint,
          status,
          message: ok ? (JSON.parse(decrypt(body, device).toString('utf8')) as Record<string, unknown>) : undefined,
          vapid,
          ttl: req.headers.ttl as string | undefined,
        });
        res.writeHead(status).end();
      } catch (err) {
        faults.push(String(err));
        res.writeHead(400).end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    faults,
    device() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const path = `/push/${randomBytes(8).toString('hex')}`;
      const device: Device = {
        endpoint: `${origin}${path}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
        answers: [],
        hang: false,
        privateKey: ecdh.getPrivateKey(),
        publicKey: ecdh.getPublicKey(),
        authSecret,
      };
      devices.set(path, device);
      return device;
    },
    take() {
      const fresh = received.slice(taken);
      taken = received.length;
      return fresh;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`. The JWT is ES256 (the signature is
 * r || s, 64 bytes) over `header.claims`, by the private key of `k` (an uncompressed P-256 point).
 */
function checkVapid(authorization: string, expectedAudience: string) {
  const match = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+), k=([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  const [headerPart, claimsPart, signaturePart] = jwt.split('.') as [string, string, string];
  const header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (header.alg !== 'ES256' || header.typ !== 'JWT') throw new Error(`JWT header ${JSON.stringify(header)}`);
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const signature = Buffer.from(signaturePart, 'base64url');
  if (signature.length !== 64) throw new Error('an ES256 signature is 64 bytes');
  const signed = verify('sha256', Buffer.from(`${headerPart}.${claimsPart}`), { key, dsaEncoding: 'ieee-p1363' }, signature);
  if (!signed) throw new Error('the JWT signature does not verify with k');
  const claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
  if (claims.aud !== expectedAudience) throw new Error(`aud ${claims.aud}, expected ${expectedAudience}`);
  const now = Math.floor(Date.now() / 1000);
  if (!(claims.exp > now && claims.exp <= now + 24 * 60 * 60)) throw new Error(`exp ${claims.exp} is not within 24 hours`);
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error(`sub ${claims.sub}`);
  return { ...claims, k };
}

/**
 * RFC 8291 with RFC 8188's aes128gcm: salt (16) | rs (4) | idlen (1) | keyid (the sender's public
 * key, 65) | one record; the key and nonce from the ECDH secret and the auth secret by HKDF-SHA-256.
 */
function decrypt(body: Buffer, device: Device): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const senderPublicKey = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (idlen !== 65) throw new Error(`keyid of ${idlen} bytes, expected the sender's 65-byte key`);
  if (record.length > rs) throw new Error('more than one record');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(device.privateKey);
  const ecdhSecret = ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.publicKey, senderPublicKey]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, device.authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}
