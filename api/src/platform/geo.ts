import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Reader, type Response } from 'mmdb-lib';
import { COUNTRY_CODES } from '@parley/contract/countries';
import { isLocalAddress, normaliseAddress } from './address.ts';

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

const KNOWN = new Set(COUNTRY_CODES);

/** ISO 3166-1 alpha-2 code of the address's country, or null (unknown, local or not an address). */
export function countryOfAddress(address: string | undefined): string | null {
  if (!address) return null;
  // An IPv4 client of a dual-stack socket arrives as ::ffff:a.b.c.d: normalised to a.b.c.d.
  const plain = normaliseAddress(address);
  if (!plain || isLocalAddress(plain)) return null;
  try {
    // This database's records are { country_code }, not MaxMind's nested shape.
    const code = (open().get(plain) as { country_code?: unknown } | null)?.country_code;
    if (typeof code !== 'string') return null;
    return KNOWN.has(code.toUpperCase()) ? code.toUpperCase() : null;
  } catch {
    return null;
  }
}
