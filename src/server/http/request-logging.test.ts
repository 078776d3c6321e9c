import { describe, expect, it } from 'vitest';
import { redactUrl } from './request-logging';

describe('redactUrl', () => {
  it('hides download, invitation and reset tokens', () => {
    const token = 'a'.repeat(20) + '_-' + 'B9'.repeat(10) + 'z';
    expect(redactUrl(`/api/files/${token}`)).toBe('/api/files/[redacted]');
    expect(redactUrl('/api/files/short')).toBe('/api/files/[redacted]');
    expect(redactUrl('/sign-up-lawyer/3f0c9d1e-6a51-4c1b-9a7e-2b8f5d4c6e10')).toBe('/sign-up-lawyer/[redacted]');
    expect(redactUrl('/reset/validate/3F0C9D1E-6A51-4C1B-9A7E-2B8F5D4C6E10?x=1')).toBe('/reset/validate/[redacted]?x=1');
    expect(redactUrl('/anything?token=abc&page=2&uuid=def')).toBe('/anything?token=[redacted]&page=2&uuid=[redacted]');
    expect(redactUrl(`/later/${token}/more`)).toBe('/later/[redacted]/more');
  });

  it('keeps ordinary URLs as they are', () => {
    for (const url of ['/api/firms/12', '/api/applications?page=2&search=smith', '/assets/index-4f9a2c.js', '/dev/mailbox'])
      expect(redactUrl(url)).toBe(url);
  });
});
