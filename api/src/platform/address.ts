import { BlockList, isIP } from 'node:net';

/**
 * The eight 16-bit words of an IPv6 address (an IPv4 tail such as `::ffff:1.2.3.4` included), or
 * undefined when `address` is not one.
 */
export function ipv6Words(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.replace(/%.*$/, '').toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const left = part(head);
  const right = part(tail);
  if (tail === undefined) return left.length === 8 ? left : undefined;
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) stands for. */
function unmapped(words: number[]): string | undefined {
  if (words.slice(0, 5).some((w) => w !== 0) || words[5] !== 0xffff) return undefined;
  return [words[6]! >> 8, words[6]! & 255, words[7]! >> 8, words[7]! & 255].join('.');
}

/**
 * An address as the server compares and keys it: brackets, a port and a zone dropped, an
 * IPv4-mapped IPv6 address as its IPv4. Undefined when what is left is not an IP address.
 */
export function normaliseAddress(raw: string): string | undefined {
  let a = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(':'));
  a = a.replace(/%.*$/, '');
  const family = isIP(a);
  if (family === 4) return a;
  if (family !== 6) return undefined;
  const words = ipv6Words(a)!;
  return unmapped(words) ?? a.toLowerCase();
}

/**
 * The client's address when `hops` proxies of ours stand in front of the server, each appending
 * the address it was reached from to X-Forwarded-For: the entry `hops` from the right. Whatever a
 * client wrote further left is ignored. No proxies (0), no header, or an entry that is no address:
 * the connection's own address.
 */
export function forwardedClient(remote: string | undefined, forwardedFor: string | undefined, hops: number): string {
  const own = (remote && normaliseAddress(remote)) ?? remote ?? '';
  if (hops <= 0 || !forwardedFor) return own;
  const entries = forwardedFor
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return own;
  // Fewer entries than proxies: the request entered the chain past the first; the leftmost is what the first one it met wrote.
  const entry = entries[Math.max(0, entries.length - hops)]!;
  return normaliseAddress(entry) ?? own;
}

/**
 * What rate limits key an address by: an IPv4 address itself, an IPv6 address its /64 (one
 * subscriber's network hands each device addresses from the same /64, and a client can pick any
 * of its 2^64 addresses at will).
 */
export function addressKey(address: string): string {
  const a = normaliseAddress(address) ?? address;
  const words = ipv6Words(a);
  if (!words) return a;
  return `${words
    .slice(0, 4)
    .map((w) => w.toString(16))
    .join(':')}::/64`;
}

// Loopback, private, link-local, carrier-grade NAT and unique-local ranges.
type Ranges = ReadonlyArray<readonly [string, number]>;
const LOCAL_V4: Ranges = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
];
const LOCAL_V6: Ranges = [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
];

function blockList(v4: Ranges, v6: Ranges): BlockList {
  const list = new BlockList();
  for (const [net, bits] of v4) list.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of v6) list.addSubnet(net, bits, 'ipv6');
  return list;
}
const NOT_PUBLIC = blockList(LOCAL_V4, LOCAL_V6);

/** A normalised address (see normaliseAddress) that is loopback, private, link-local or unique-local. */
export function isLocalAddress(address: string): boolean {
  return NOT_PUBLIC.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The network of a public address; undefined for a loopback, private or link-local one. Such an
 * address is a reverse proxy (TRUST_PROXY not set) or a local network: it would link everyone
 * behind it, so it links nobody.
 */
export function publicNetworkOf(address: string): string | undefined {
  const network = addressKey(address);
  const family = isIP(network) === 4 ? 'ipv4' : network.endsWith('::/64') ? 'ipv6' : undefined;
  if (!family) return undefined;
  const probe = family === 'ipv4' ? network : network.replace('::/64', '::');
  return NOT_PUBLIC.check(probe, family) ? undefined : network;
}

// Beyond NOT_PUBLIC, what no fetch made for a user may reach: multicast, broadcast, reserved and
// documentation ranges, and the IPv6 forms that carry an IPv4 address (IPv4-compatible, NAT64,
// 6to4, Teredo) or are scoped to a site (site-local), any of which can lead back inside.
const NOT_FETCHABLE = blockList(
  [
    ...LOCAL_V4,
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ],
  [
    ...LOCAL_V6,
    // IPv4-mapped addresses are judged as their IPv4 (normaliseAddress); BlockList matches IPv4 against a mapped range too.
    ['::', 96],
    ['64:ff9b::', 96],
    ['64:ff9b:1::', 48],
    ['100::', 64],
    ['2001::', 32],
    ['2001:db8::', 32],
    ['2002::', 16],
    ['fec0::', 10],
    ['ff00::', 8],
  ],
);

/**
 * An IP address the server may connect to on a user's behalf (a link preview, a push service):
 * public unicast only. An IPv4-mapped IPv6 address is judged as its IPv4; other IPv6 addresses
 * must be global unicast (2000::/3), so forms outside it (IPv4-translated ::ffff:0:0/96 among them)
 * never pass; anything that is not an IP address is not.
 */
export function isFetchableAddress(address: string): boolean {
  const a = normaliseAddress(address);
  if (a === undefined) return false;
  const family = isIP(a);
  if (family === 4) return !NOT_FETCHABLE.check(a, 'ipv4');
  const first = ipv6Words(a)?.[0];
  if (first === undefined || (first & 0xe000) !== 0x2000) return false;
  return !NOT_FETCHABLE.check(a, 'ipv6');
}
