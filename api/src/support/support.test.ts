import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TokenUser } from '@parley/contract/auth';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { supportRequests, users } from '../db/schema.ts';
import { SUPPORT_REQUESTS_PER_HOUR } from './routes.ts';

const valid = { email: 'Ada@Example.com', topic: 'safety', message: 'Someone was rude to me in a video chat yesterday.' };

function tokenUser(id: string, username: string): TokenUser {
  return { userId: id, username, avatar: '', gender: 'female', age: 30, isVerified: true, premiumUser: 'free tier' };
}

describe('POST /api/support', () => {
  let server: TestServer;
  // Each test speaks from its own address so the per-address limit of one does not leak into another.
  let address = 0;
  const from = () => ({ 'x-forwarded-for': `203.0.113.${++address}` });

  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true' });
  });
  afterAll(() => server.close());

  const stored = async (id: string) => (await server.deps.db.select().from(supportRequests).where(eq(supportRequests.id, id)))[0];

  it('stores an anonymous request and answers 201 with its id', async () => {
    const res = await server.api('/api/support', { method: 'POST', json: valid, headers: from() });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const row = await stored(id);
    expect(row).toMatchObject({ email: 'ada@example.com', topic: 'safety', message: valid.message, userId: null });
  });

  it('links the request to the signed-in user when a valid Bearer token is sent', async () => {
    const [user] = await server.deps.db.insert(users).values({ username: 'ada' }).returning({ id: users.id });
    const token = await server.deps.tokens.sign(tokenUser(user!.id, 'ada'));
    const res = await server.api('/api/support', { method: 'POST', json: valid, headers: { ...from(), authorization: `Bearer ${token}` } });
    expect(res.status).toBe(201);
    expect((await stored(((await res.json()) as { id: string }).id))?.userId).toBe(user!.id);
  });

  it('files the request anonymously when the token is forged or its account is gone', async () => {
    const ghost = await server.deps.tokens.sign(tokenUser('6f1c2a4e-4b7e-4d8a-9a51-0c2f4a9d3b11', 'ghost'));
    for (const authorization of [`Bearer ${ghost}`, 'Bearer not.a.token']) {
      const res = await server.api('/api/support', { method: 'POST', json: valid, headers: { ...from(), authorization } });
      expect(res.status).toBe(201);
      expect((await stored(((await res.json()) as { id: string }).id))?.userId).toBeNull();
    }
  });

  it('refuses invalid bodies with 400 and a message per field', async () => {
    const res = await server.api('/api/support', {
      method: 'POST',
      json: { email: 'not-an-email', topic: 'gossip', message: 'short' },
      headers: from(),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; code: string; fields: Record<string, string> };
    expect(body.code).toBe('validation_failed');
    expect(body.fields).toEqual({
      email: 'Enter a valid email address',
      topic: 'Choose a topic',
      message: 'Tell us a little more (at least 10 characters)',
    });
  });

  it('refuses a missing body with 400, not a crash', async () => {
    const res = await server.api('/api/support', { method: 'POST', headers: from() });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('validation_failed');
  });

  it(`limits one address to ${SUPPORT_REQUESTS_PER_HOUR} requests an hour with 429 and Retry-After`, async () => {
    const headers = from();
    for (let i = 0; i < SUPPORT_REQUESTS_PER_HOUR; i++) {
      expect((await server.api('/api/support', { method: 'POST', json: valid, headers })).status).toBe(201);
    }
    const refused = await server.api('/api/support', { method: 'POST', json: valid, headers });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(((await refused.json()) as { code: string }).code).toBe('rate_limited');
    // Another address is not affected.
    expect((await server.api('/api/support', { method: 'POST', json: valid, headers: from() })).status).toBe(201);
  });
});
