import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KNOWN_PUSH_SERVICE_HOSTS } from '../config';
import { endpointCode, isAuthSecret, isP256PublicKey } from './subscription-checks';

const production = { production: true, serviceHosts: KNOWN_PUSH_SERVICE_HOSTS };
const elsewhere = { production: false, serviceHosts: KNOWN_PUSH_SERVICE_HOSTS };

describe('a push endpoint (docs/decisions.md 676, 701)', () => {
  it('takes an https URL of each browser’s push service, in production and out', () => {
    for (const rules of [production, elsewhere]) {
      expect(endpointCode('https://fcm.googleapis.com/fcm/send/abc', rules)).toBeNull();
      expect(endpointCode('https://web.push.apple.com/QGuQyavXutnMH', rules)).toBeNull();
      expect(endpointCode('https://updates.push.services.mozilla.com/wpush/v2/gAAAA', rules)).toBeNull();
      expect(endpointCode('https://wns2-par02p.notify.windows.com/w/?token=BQYAAA', rules)).toBeNull();
    }
  });

  it('in production refuses any other host, one that only ends like a push service, and a port', () => {
    for (const endpoint of [
      'https://push.example.com/x',
      'https://evilfcm.googleapis.com.example.com/x',
      'https://notfcm.googleapis.com/x',
      'https://metadata.internal/computeMetadata',
    ])
      expect(endpointCode(endpoint, production), endpoint).toBe('pushServiceUnknown');
    expect(endpointCode('https://fcm.googleapis.com:8443/fcm/send/abc', production)).toBe('invalid');
    expect(endpointCode('https://push.example.com/x', elsewhere)).toBeNull();
  });

  it('takes the hosts it is given instead', () => {
    const own = { production: true, serviceHosts: ['push.example.com'] };
    expect(endpointCode('https://eu.push.example.com/x', own)).toBeNull();
    expect(endpointCode('https://fcm.googleapis.com/fcm/send/abc', own)).toBe('pushServiceUnknown');
  });

  it('refuses anything but https, and http://127.0.0.1 is taken only outside production', () => {
    expect(endpointCode('http://push.example.com/x', elsewhere)).toBe('httpsRequired');
    expect(endpointCode('ftp://push.example.com/x', elsewhere)).toBe('httpsRequired');
    expect(endpointCode('not a url', elsewhere)).toBe('httpsRequired');
    expect(endpointCode('http://127.0.0.1:4610/push/1', elsewhere)).toBeNull();
    expect(endpointCode('http://127.0.0.1:4610/push/1', production)).toBe('httpsRequired');
    expect(endpointCode('http://localhost:4610/push/1', elsewhere)).toBe('httpsRequired');
  });

  it('refuses credentials in the URL, and in production an address or localhost', () => {
    expect(endpointCode('https://user:pw@push.example.com/x', elsewhere)).toBe('invalid');
    for (const host of ['10.0.0.5', '127.0.0.1', '[::1]'])
      expect(endpointCode(`https://${host}/push`, production), host).toBe('invalid');
    for (const host of ['localhost', 'admin.localhost'])
      expect(endpointCode(`https://${host}/push`, production), host).toBe('pushServiceUnknown');
    expect(endpointCode('https://127.0.0.1/push', elsewhere)).toBeNull();
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
