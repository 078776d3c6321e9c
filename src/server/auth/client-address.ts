import net from 'node:net';

/**
 * The part of a client's address that identifies one client for rate limits. IPv4 as it is
 * (also when it arrives IPv6-mapped, ::ffff:a.b.c.d); IPv6 by its /64 prefix, since one
 * subscriber is handed a whole /64 and could otherwise take a new address for every attempt.
 */
export function clientAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (net.isIPv4(ip)) return ip;
  if (!net.isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, '::' filled in, leading zeros dropped. */
function expandIPv6(ip: string): string[] {
  const [head = '', tail] = ip.split('%')[0]!.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => String(parseInt(g || '0', 16).toString(16)));
}
