import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { isFetchableAddress } from './address.ts';

/**
 * GET of a URL a user gave (a link preview) that cannot be turned against the server's own network:
 * http and https only, on the usual web ports, no credentials in the URL; the host name is resolved
 * here and every address it has must be public (address.ts), and the connection goes to the address
 * that was checked (no second lookup a rebinding DNS server could answer differently). Each redirect
 * is checked the same way; the body is cut at `maxBytes`, the whole exchange at `timeoutMs`. No
 * cookies or credentials are sent or kept.
 */

export type SafeFetchOptions = {
  /** Every address of a host name (default: the system resolver, every family). */
  resolve?: (hostname: string) => Promise<string[]>;
  /**
   * `host:port` pairs fetched whatever their address and port (LINK_PREVIEW_ALLOW): a stand-in on
   * this machine for tests; empty in production.
   */
  allow?: readonly string[];
  /** The ports a URL may name (default the usual web ports). */
  ports?: readonly number[];
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  accept?: string;
  userAgent?: string;
};

export type Fetched = { url: string; status: number; contentType: string; body: Buffer; truncated: boolean };

/** Why a URL was not fetched: a reason for logs and tests, never shown to users as is. */
export class FetchRefused extends Error {}

export const WEB_PORTS: readonly number[] = [80, 443, 8080, 8443];
export const FETCH_USER_AGENT = 'ParleyLinkPreview/1.0 (+link previews for Parley chats; no cookies kept)';

const defaultResolve = async (hostname: string) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** A lookup that stalls does not hold the fetch past its time. */
function beforeDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const stop = () => reject(new FetchRefused('timed out'));
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** The host, port and address a URL may be fetched from, or why not. */
async function checked(url: URL, opts: SafeFetchOptions, signal: AbortSignal): Promise<{ host: string; port: number; address: string }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused(`scheme ${url.protocol} is not fetched`);
  if (url.username || url.password) throw new FetchRefused('credentials in a URL are not fetched');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === '') throw new FetchRefused('no host');
  const allowed = (opts.allow ?? []).includes(`${url.hostname.toLowerCase()}:${port}`);
  if (!allowed && !(opts.ports ?? WEB_PORTS).includes(port)) throw new FetchRefused(`port ${port} is not fetched`);
  const addresses = isIP(host) ? [host] : await beforeDeadline((opts.resolve ?? defaultResolve)(host), signal);
  if (addresses.length === 0) throw new FetchRefused(`${host} has no address`);
  if (!allowed) {
    // One private address among public ones is enough to refuse: which one a client would use is the resolver's choice.
    const bad = addresses.find((a) => !isFetchableAddress(a));
    if (bad !== undefined) throw new FetchRefused(`${host} resolves to ${bad}, which is not public`);
  }
  return { host, port, address: addresses[0]! };
}

/** A lookup that answers the checked address and nothing else, whatever name the socket asks for. */
function pinned(address: string): LookupFunction {
  const family = isIP(address);
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

function once(
  url: URL,
  target: { host: string; port: number; address: string },
  opts: SafeFetchOptions,
  signal: AbortSignal,
): Promise<{ status: number; location: string | undefined; contentType: string; body: Buffer; truncated: boolean }> {
  const maxBytes = opts.maxBytes ?? 512 * 1024;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      {
        protocol: url.protocol,
        host: target.host,
        port: target.port,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        lookup: pinned(target.address),
        // Its own connection each time: no pooled socket to some other address is reused.
        agent: false,
        signal,
        headers: {
          'user-agent': opts.userAgent ?? FETCH_USER_AGENT,
          accept: opts.accept ?? '*/*',
          'accept-encoding': 'identity',
        },
        ...(url.protocol === 'https:' && !isIP(target.host) && { servername: target.host }),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const contentType = String(res.headers['content-type'] ?? '');
        if (status >= 300 && status < 400) {
          res.destroy();
          return resolve({ status, location: res.headers.location, contentType, body: Buffer.alloc(0), truncated: false });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = maxBytes - size;
          if (chunk.length >= room) {
            chunks.push(chunk.subarray(0, room));
            size = maxBytes;
            truncated = true;
            resolve({ status, location: undefined, contentType, body: Buffer.concat(chunks), truncated });
            res.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => resolve({ status, location: undefined, contentType, body: Buffer.concat(chunks), truncated }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export async function safeFetch(raw: string, opts: SafeFetchOptions = {}): Promise<Fetched> {
  const maxRedirects = opts.maxRedirects ?? 3;
  const signal = AbortSignal.timeout(opts.timeoutMs ?? 5000);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefused('not a URL');
  }
  for (let hop = 0; ; hop++) {
    const target = await checked(url, opts, signal);
    if (signal.aborted) throw new FetchRefused('timed out');
    const res = await once(url, target, opts, signal);
    if (res.location === undefined)
      return { url: url.href, status: res.status, contentType: res.contentType, body: res.body, truncated: res.truncated };
    if (hop >= maxRedirects) throw new FetchRefused('too many redirects');
    try {
      url = new URL(res.location, url);
    } catch {
      throw new FetchRefused('redirect to something that is not a URL');
    }
  }
}
