import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FetchRefused, safeFetch, type SafeFetchOptions } from './safeFetch.ts';
import { isFetchableAddress } from './address.ts';

/** A listener on this machine that must never be reached: it counts every connection made to it. */
let victim: http.Server;
let victimPort = 0;
let reached = 0;
/** A "public" page (reached through the test's allow-list) that redirects wherever its query says. */
let redirector: http.Server;
let redirectorPort = 0;

const listen = async (server: http.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  victim = http.createServer((_req, res) => res.end('<title>internal</title>'));
  victim.on('connection', () => reached++);
  victimPort = await listen(victim);
  redirector = http.createServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/';
    res.writeHead(302, { location: to }).end();
  });
  redirectorPort = await listen(redirector);
});
afterAll(() => {
  victim.close();
  redirector.close();
});

// The victim's port counts as a web port here, so that only the address can be what refuses.
const strict = (): SafeFetchOptions => ({ ports: [80, 443, victimPort], timeoutMs: 1500 });

describe('safeFetch never reaches the server’s own network', () => {
  const hosts = [
    '127.0.0.1',
    'localhost',
    '0.0.0.0',
    '[::1]',
    '[::]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::127.0.0.1]',
    '2130706433',
    '0x7f.1',
    '0177.0.0.1',
    '0x7f000001',
    '127.1',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '[fc00::1]',
    '[fd12:3456::1]',
    '[fe80::1]',
    '[fec0::1]',
    '[64:ff9b::7f00:1]',
    '[2002:7f00:1::]',
  ];
  it.each(hosts)('http://%s is refused before any connection', async (host) => {
    const before = reached;
    await expect(safeFetch(`http://${host}:${victimPort}/`, strict())).rejects.toBeInstanceOf(FetchRefused);
    expect(reached).toBe(before);
  });

  it('refuses other schemes, credentials and unusual ports', async () => {
    for (const url of [
      `file:///etc/passwd`,
      `ftp://example.com/`,
      `gopher://127.0.0.1:${victimPort}/`,
      'http://user:pw@example.com/',
      `http://example.com:22/`,
    ])
      await expect(safeFetch(url, { resolve: async () => ['93.184.216.34'] })).rejects.toBeInstanceOf(FetchRefused);
  });

  it('refuses a name that resolves to a private address, or to one among public ones', async () => {
    const before = reached;
    await expect(safeFetch(`http://internal.test:${victimPort}/`, { ...strict(), resolve: async () => ['127.0.0.1'] })).rejects.toThrow(
      /not public/,
    );
    await expect(
      safeFetch(`http://mixed.test:${victimPort}/`, { ...strict(), resolve: async () => ['93.184.216.34', '10.1.2.3'] }),
    ).rejects.toThrow(/not public/);
    expect(reached).toBe(before);
  });

  it.each([
    ['loopback', () => `http://127.0.0.1:${victimPort}/`],
    ['localhost', () => `http://localhost:${victimPort}/`],
    ['the mapped form', () => `http://[::ffff:127.0.0.1]:${victimPort}/`],
    ['a decimal address', () => `http://2130706433:${victimPort}/`],
  ])('a redirect from a public page to %s is refused', async (_name, target) => {
    const before = reached;
    const opts: SafeFetchOptions = {
      ...strict(),
      allow: [`public.test:${redirectorPort}`],
      resolve: async (h) => (h === 'public.test' ? ['127.0.0.1'] : ['127.0.0.1']),
    };
    await expect(safeFetch(`http://public.test:${redirectorPort}/?to=${encodeURIComponent(target())}`, opts)).rejects.toThrow(/not public/);
    expect(reached).toBe(before);
  });

  it('stops after three redirects', async () => {
    const self = `http://public.test:${redirectorPort}/`;
    let url = `${self}?to=${encodeURIComponent(self)}`;
    for (let i = 0; i < 4; i++) url = `${self}?to=${encodeURIComponent(url)}`;
    await expect(safeFetch(url, { allow: [`public.test:${redirectorPort}`], resolve: async () => ['127.0.0.1'] })).rejects.toThrow(
      /too many redirects/,
    );
  });

  it('connects to the address it checked: a resolver that answers public, then private, is asked once', async () => {
    const before = reached;
    const answers: string[] = [];
    // 192.0.0.170 would be refused; 93.184.216.34 is public, then the rebinding answer is loopback.
    const resolve = async () => {
      const a = answers.length === 0 ? '93.184.216.34' : '127.0.0.1';
      answers.push(a);
      return [a];
    };
    // The public address is not reachable from a test (or answers slowly): the fetch fails or times out, either way elsewhere.
    await safeFetch(`http://rebind.test:${victimPort}/`, { ...strict(), resolve, timeoutMs: 800 }).catch(() => undefined);
    expect(answers).toEqual(['93.184.216.34']);
    expect(reached).toBe(before);
  });

  it('fetches a stand-in the allow-list names, cut at its byte limit', async () => {
    const before = reached;
    const res = await safeFetch(`http://standin.test:${victimPort}/`, {
      allow: [`standin.test:${victimPort}`],
      resolve: async () => ['127.0.0.1'],
      maxBytes: 10,
    });
    expect(res).toMatchObject({ status: 200, truncated: true });
    expect(res.body.toString()).toBe('<title>int');
    expect(reached).toBe(before + 1);
  });
});

describe('isFetchableAddress', () => {
  it('takes public unicast addresses only', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isFetchableAddress(a)).toBe(true);
    for (const a of [
      '127.0.0.1',
      '::1',
      '::',
      '0.0.0.0',
      '255.255.255.255',
      '198.18.0.1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:0:8.8.8.8',
      '4000::1',
      'not an ip',
    ])
      expect(isFetchableAddress(a)).toBe(false);
  });
});
