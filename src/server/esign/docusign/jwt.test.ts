import { generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jwtAssertion } from './jwt';

describe('jwtAssertion', () => {
  it('is an RS256 JWT of the integration, the user, the authentication host and the impersonation scope, for an hour', () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwt = jwtAssertion(
      {
        integrationKey: '0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3',
        userId: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
        oauthBase: 'https://account-d.docusign.com',
        privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
      },
      1_790_000_000,
    );
    const [header, claims, signature] = jwt.split('.') as [string, string, string];
    const read = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    expect(read(header)).toEqual({ alg: 'RS256', typ: 'JWT' });
    expect(read(claims)).toEqual({
      iss: '0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3',
      sub: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
      aud: 'account-d.docusign.com',
      iat: 1_790_000_000,
      exp: 1_790_003_600,
      scope: 'signature impersonation',
    });
    expect(verify('RSA-SHA256', Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
  });
});
