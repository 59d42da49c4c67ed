import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { member, type Member } from '../testing/people.ts';
import { PROFILE_LOOKUPS_PER_HOUR, PROFILE_MISSES_PER_HOUR } from './profileRoutes.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: 'true' });
});
afterAll(() => server.close());

let address = 0;
const from = () => `10.8.${address >> 8}.${address++ & 255}`;
const nobody = () => `nobody${randomUUID().slice(0, 8)}`;
const open = (m: Member, name: string, ip = from()) =>
  m.call(`/api/users/${encodeURIComponent(name)}`, { headers: { 'x-forwarded-for': ip } });

describe('usernames cannot be listed by opening profiles', () => {
  it(`names that do not answer: ${PROFILE_MISSES_PER_HOUR} an hour per account, then 429 with Retry-After`, async () => {
    const guesser = await member(server);
    const statuses: number[] = [];
    for (let i = 0; i < PROFILE_MISSES_PER_HOUR; i++) statuses.push((await open(guesser, nobody())).status);
    expect(statuses).toEqual(Array(PROFILE_MISSES_PER_HOUR).fill(404));
    const refused = await open(guesser, nobody());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/Too many profiles opened/);
  });

  it('and per address, whichever accounts guess from it (an IPv6 network by its /64)', async () => {
    const net = `2001:db8:${(address++).toString(16)}:9`;
    for (let i = 0; i < PROFILE_MISSES_PER_HOUR; i++)
      expect((await open(await member(server), nobody(), `${net}::${i + 1}`)).status).toBe(404);
    const fresher = await member(server);
    expect((await open(fresher, nobody(), `${net}::ffff`)).status).toBe(429);
    // The same account from elsewhere still opens a real profile.
    const real = await member(server);
    expect((await open(fresher, real.username)).status).toBe(200);
  });

  it('profiles that exist cost no miss', async () => {
    const reader = await member(server);
    const known = await member(server);
    for (let i = 0; i <= PROFILE_MISSES_PER_HOUR; i++) expect((await open(reader, known.username)).status).toBe(200);
    expect((await open(reader, nobody())).status).toBe(404);
  });

  it(`every profile counts: ${PROFILE_LOOKUPS_PER_HOUR} an hour per account`, async () => {
    const reader = await member(server);
    const known = await member(server);
    let opened = 0;
    // Spread over addresses, so only the account's budget can end it.
    while (opened <= PROFILE_LOOKUPS_PER_HOUR && (await open(reader, known.username)).status === 200) opened++;
    expect(opened).toBe(PROFILE_LOOKUPS_PER_HOUR);
  });
});
