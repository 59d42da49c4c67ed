import { BlockList, isIP } from 'node:net';

/**
 * The network an address stands for when linking accounts: an IPv4 address as it is, an IPv6
 * address as its /64 (one subscriber usually holds a whole /64 and can pick any address in it).
 * IPv4-mapped IPv6 (`::ffff:192.0.2.1`) counts as the IPv4 address. Anything else is returned
 * unchanged, so a strange value links only to itself.
 */
export function networkOf(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1]!;
  if (isIP(bare) !== 6) return bare;
  return `${expandIPv6(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros (an embedded IPv4 tail becomes two groups). */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16).toString(16));
}

// Loopback, private, link-local, carrier-grade NAT and unique-local ranges.
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv6');

/**
 * The network of a public address; undefined for a loopback, private or link-local one. Such an
 * address is a reverse proxy (TRUST_PROXY not set) or a local network: it would link everyone
 * behind it, so it links nobody.
 */
export function publicNetworkOf(address: string): string | undefined {
  const network = networkOf(address);
  const family = isIP(network) === 4 ? 'ipv4' : network.endsWith('::/64') ? 'ipv6' : undefined;
  if (!family) return undefined;
  const probe = family === 'ipv4' ? network : network.replace('::/64', '::');
  return NOT_PUBLIC.check(probe, family) ? undefined : network;
}
