import { BlockList, isIP } from 'node:net';
import { ipv6Words } from '../platform/address.ts';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import https from 'node:https';

/** IPv4 addresses no push service lives at: loopback, private, link-local, shared, documentation, multicast, reserved. */
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
/** Blocks inside global unicast (2000::/3) no push service lives in: IETF special use (Teredo among them), documentation. */
const NOT_PUBLIC_V6 = new BlockList();
for (const [net, bits] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
] as const)
  NOT_PUBLIC_V6.addSubnet(net, bits, 'ipv6');

const ipv4Of = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
const zeros = (words: number[]) => words.every((w) => w === 0);

/**
 * Whether an IP address is one a public push service could have. IPv6 forms that carry an IPv4
 * address (IPv4-mapped, 6to4, NAT64) are judged by that address, so a private one cannot hide in
 * them; IPv4-compatible and local-use NAT64 forms are refused; otherwise only global unicast is public.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4');
  const w = family === 6 ? ipv6Words(address) : undefined;
  if (!w) return false;
  // ::ffff:a.b.c.d (IPv4-mapped)
  if (zeros(w.slice(0, 5)) && w[5] === 0xffff) return isPublicAddress(ipv4Of(w[6]!, w[7]!));
  // 64:ff9b::a.b.c.d (NAT64's well-known prefix): what a DNS64 resolver answers for an IPv4-only name.
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(w.slice(2, 6))) return isPublicAddress(ipv4Of(w[6]!, w[7]!));
  // 2002:aabb:ccdd::/48 (6to4) carries a.b.c.d in its second and third words.
  if (w[0] === 0x2002) return isPublicAddress(ipv4Of(w[1]!, w[2]!));
  // Everything else outside 2000::/3 (::/96 IPv4-compatible, ::1, 64:ff9b:1::/48, fc00::/7, fe80::/10, ff00::/8…) is not public.
  if ((w[0]! & 0xe000) !== 0x2000) return false;
  return !NOT_PUBLIC_V6.check(address, 'ipv6');
}

/** Hosts allowed despite a private address, with the CA that signs them: a local push stand-in, set by tests only. */
export type PushTransportOverride = { allowHosts: string[]; ca?: string | Buffer };

/** Domains that name hosts of a private network, never of a public push service (RFC 6761, 6762, 8375 and common use). */
const PRIVATE_NAMES = [
  'localhost',
  'local',
  'localdomain',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'arpa',
  'invalid',
  'test',
  'example',
  'onion',
];

const hostOf = (endpoint: string) => new URL(endpoint).hostname.replace(/^\[|\]$/g, '');

/**
 * Whether the server may send to `endpoint` as far as its text shows: https, no credentials, not
 * an IP literal of a private network (in any of its IPv6 forms), and a fully qualified public name
 * (no trailing dot, no single label). Names are checked again when they are resolved (pushAgent).
 */
export function endpointAllowed(endpoint: string, override?: PushTransportOverride): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = hostOf(endpoint);
  if (override?.allowHosts.includes(host)) return true;
  if (isIP(host) !== 0) return isPublicAddress(host);
  // A name: fully qualified as written, with no empty label and not of a private-use domain.
  const labels = host.split('.');
  if (labels.length < 2 || labels.some((l) => l === '')) return false;
  return !PRIVATE_NAMES.some((d) => host === d || host.endsWith(`.${d}`));
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The HTTPS agent pushes go through. Its DNS look-up refuses a name that resolves to a private
 * address, at connection time, so a name that changes its answer after the subscription was
 * checked (DNS rebinding) still cannot reach the server's own network.
 */
export function pushAgent(override?: PushTransportOverride): https.Agent {
  const lookup = (hostname: string, options: object, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const allowed = override?.allowHosts.includes(hostname);
      const usable = addresses.filter((a) => allowed || isPublicAddress(a.address));
      if (usable.length === 0) {
        const refused: NodeJS.ErrnoException = new Error(`push endpoint ${hostname} does not resolve to a public address`);
        refused.code = 'EPUSHPRIVATE';
        return callback(refused, []);
      }
      if ((options as { all?: boolean }).all) callback(null, usable);
      else callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
  return new https.Agent({ keepAlive: true, maxSockets: 64, lookup: lookup as never, ...(override?.ca ? { ca: override.ca } : {}) });
}
