import { isIP } from 'node:net';
import { isFetchableAddress } from '../platform/address.ts';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import https from 'node:https';

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
 * an IP literal the server may not fetch from (platform/address.ts: private networks, and the IPv6
 * forms that carry an IPv4 address), and a fully qualified public name
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
  if (isIP(host) !== 0) return isFetchableAddress(host);
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
      const usable = addresses.filter((a) => allowed || isFetchableAddress(a.address));
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
