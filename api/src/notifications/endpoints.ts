import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import https from 'node:https';

/** Addresses no push service lives at: loopback, private, link-local, shared, documentation, multicast, reserved. */
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
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is one a public push service could have; IPv4-mapped IPv6 is judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]!);
    if (/^::ffff:/i.test(address)) return false;
    return !NOT_PUBLIC.check(address, 'ipv6');
  }
  return !NOT_PUBLIC.check(address, 'ipv4');
}

/** Hosts allowed despite a private address, with the CA that signs them: a local push stand-in, set by tests only. */
export type PushTransportOverride = { allowHosts: string[]; ca?: string | Buffer };

const hostOf = (endpoint: string) => new URL(endpoint).hostname.replace(/^\[|\]$/g, '');

/**
 * Whether the server may send to `endpoint` as far as its text shows: https, and not an IP literal
 * of a private network. Names are checked when they are resolved (pushAgent).
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
  if (host === 'localhost' || host.endsWith('.localhost') || (!host.includes('.') && isIP(host) === 0)) return false;
  return isIP(host) === 0 || isPublicAddress(host);
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
