import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const esign = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env }).esign;

describe('the time-stamping authority settings (ESIGN_TSA_*)', () => {
  it('are off by default, with a ten-second time limit for what signing fetches', () => {
    expect(esign({})).toMatchObject({ tsa: undefined, fetchTimeoutMs: 10_000 });
  });

  it('take an http(s) address, optional Basic credentials and a time limit', () => {
    expect(
      esign({
        ESIGN_TSA_URL: 'https://tsa.example.test/rfc3161',
        ESIGN_TSA_USERNAME: 'portal',
        ESIGN_TSA_PASSWORD: 'secret',
        ESIGN_TSA_TIMEOUT_MS: '2500',
      }),
    ).toMatchObject({
      tsa: { url: 'https://tsa.example.test/rfc3161', username: 'portal', password: 'secret' },
      fetchTimeoutMs: 2500,
    });
    expect(esign({ ESIGN_TSA_URL: 'http://127.0.0.1:3180' }).tsa).toEqual({
      url: 'http://127.0.0.1:3180/',
      username: undefined,
      password: undefined,
    });
  });

  it('refuse what cannot work, saying why', () => {
    expect(() => esign({ ESIGN_TSA_URL: 'tsa.example.test' })).toThrow(/ESIGN_TSA_URL must be an http or https address/);
    expect(() => esign({ ESIGN_TSA_URL: 'ftp://tsa.example.test' })).toThrow(/http or https/);
    expect(() => esign({ ESIGN_TSA_URL: 'https://user:pw@tsa.example.test' })).toThrow(/must not carry credentials/);
    expect(() => esign({ ESIGN_TSA_USERNAME: 'portal' })).toThrow(/need ESIGN_TSA_URL/);
    expect(() => esign({ ESIGN_TSA_URL: 'https://tsa.example.test', ESIGN_TSA_PASSWORD: 'x' })).toThrow(
      /ESIGN_TSA_PASSWORD needs ESIGN_TSA_USERNAME/,
    );
    expect(() => esign({ ESIGN_TSA_TIMEOUT_MS: '0' })).toThrow(/more than 0/);
    expect(() => esign({ ESIGN_TSA_TIMEOUT_MS: 'soon' })).toThrow(/whole number/);
  });
});
