import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './client-address';

describe('clientAddressKey', () => {
  it('keeps IPv4 addresses, also IPv6-mapped ones', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('groups IPv6 addresses by their /64', () => {
    const a = clientAddressKey('2001:db8:abcd:12::1');
    const b = clientAddressKey('2001:0db8:abcd:0012:ffff:eeee:dddd:cccc');
    expect(a).toBe('2001:db8:abcd:12::/64');
    expect(b).toBe(a);
    expect(clientAddressKey('2001:db8:abcd:13::1')).not.toBe(a);
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
