import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';
import { COUNTRY_CODES } from '@parley/contract/countries';

/**
 * The country of an address, from the database that ships inside the npm package
 * @ip-location-db/geo-whois-asn-country-mmdb (RIR whois and ASN data; CC0 package, data CC BY 4.0
 * by the NRO): read from disk once, no download and no outside service. Country only, never a city.
 */
let reader: Reader<Response> | undefined;
function open() {
  if (!reader) {
    const file = createRequire(import.meta.url).resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');
    reader = new Reader<Response>(readFileSync(file));
  }
  return reader;
}

/** Loopback, private, link-local, carrier-grade NAT and unique-local ranges: no country. */
const LOCAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  LOCAL.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  LOCAL.addSubnet(net, bits, 'ipv6');

const KNOWN = new Set(COUNTRY_CODES);

/** ISO 3166-1 alpha-2 code of the address's country, or null (unknown, local or not an address). */
export function countryOfAddress(address: string | undefined): string | null {
  if (!address) return null;
  // An IPv4 client of a dual-stack socket arrives as ::ffff:a.b.c.d.
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(plain);
  if (family === 0) return null;
  if (LOCAL.check(plain, family === 4 ? 'ipv4' : 'ipv6')) return null;
  try {
    // This database's records are { country_code }, not MaxMind's nested shape.
    const code = (open().get(plain) as { country_code?: unknown } | null)?.country_code;
    if (typeof code !== 'string') return null;
    return KNOWN.has(code.toUpperCase()) ? code.toUpperCase() : null;
  } catch {
    return null;
  }
}
