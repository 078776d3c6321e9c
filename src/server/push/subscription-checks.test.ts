import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { endpointCode, isAuthSecret, isP256PublicKey } from './subscription-checks';

describe('a push endpoint (docs/decisions.md 676)', () => {
  it('takes an https URL of a named host, in production and out', () => {
    for (const production of [true, false]) {
      expect(endpointCode('https://fcm.googleapis.com/fcm/send/abc', production)).toBeNull();
      expect(endpointCode('https://web.push.apple.com/QGuQyavXutnMH', production)).toBeNull();
    }
  });

  it('refuses anything but https, and http://127.0.0.1 is taken only outside production', () => {
    expect(endpointCode('http://push.example.com/x', false)).toBe('httpsRequired');
    expect(endpointCode('ftp://push.example.com/x', false)).toBe('httpsRequired');
    expect(endpointCode('not a url', false)).toBe('httpsRequired');
    expect(endpointCode('http://127.0.0.1:4610/push/1', false)).toBeNull();
    expect(endpointCode('http://127.0.0.1:4610/push/1', true)).toBe('httpsRequired');
    expect(endpointCode('http://localhost:4610/push/1', false)).toBe('httpsRequired');
  });

  it('refuses credentials in the URL, and in production an address or localhost', () => {
    expect(endpointCode('https://user:pw@push.example.com/x', false)).toBe('invalid');
    for (const host of ['10.0.0.5', '127.0.0.1', '[::1]', 'localhost', 'admin.localhost'])
      expect(endpointCode(`https://${host}/push`, true), host).toBe('invalid');
    expect(endpointCode('https://127.0.0.1/push', false)).toBeNull();
  });
});

describe('the browser’s keys', () => {
  it('takes a P-256 point and a 16-byte secret, base64url', () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    expect(isP256PublicKey(ecdh.getPublicKey().toString('base64url'))).toBe(true);
    expect(isAuthSecret(randomBytes(16).toString('base64url'))).toBe(true);
  });

  it('refuses other lengths, a point off the curve, and other alphabets', () => {
    const offCurve = Buffer.alloc(65, 1);
    offCurve[0] = 4;
    expect(isP256PublicKey(offCurve.toString('base64url'))).toBe(false);
    expect(isP256PublicKey(randomBytes(33).toString('base64url'))).toBe(false);
    expect(isP256PublicKey('not*base64')).toBe(false);
    expect(isAuthSecret(randomBytes(15).toString('base64url'))).toBe(false);
    expect(isAuthSecret('a b')).toBe(false);
  });
});
