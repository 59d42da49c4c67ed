import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { refreshTokens } from '../db/schema.ts';
import { insertAccount } from '../db/accounts.ts';
import { currentRefreshToken, deleteExpiredRefreshTokens, issueRefreshToken, rotateRefreshToken } from './refreshTokens.ts';

describe('refresh token store', () => {
  let server: TestServer;
  let userId: string;
  beforeAll(async () => {
    server = await startTestServer();
    userId = (await insertAccount(server.deps.db, { username: 'TokenHolder' })).id;
  });
  afterAll(() => server.close());

  it('lets exactly one of two simultaneous uses of a token win, and treats the other as theft', async () => {
    const db = server.deps.db;
    const { token } = await issueRefreshToken(db, userId);
    const [a, b] = await Promise.all([rotateRefreshToken(db, token), rotateRefreshToken(db, token)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const winner = (a ?? b)!;
    // The loser presented an already-rotated token: the whole family is revoked.
    const family = await db.select().from(refreshTokens).where(eq(refreshTokens.familyId, winner.familyId));
    expect(family.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('reads a current token without rotating it, and refuses a rotated one', async () => {
    const db = server.deps.db;
    const { token } = await issueRefreshToken(db, userId);
    expect(await currentRefreshToken(db, token)).toMatchObject({ userId });
    expect(await currentRefreshToken(db, token)).toMatchObject({ userId });
    expect(await rotateRefreshToken(db, token)).toMatchObject({ userId });
    expect(await currentRefreshToken(db, token)).toBeNull();
  });

  it('refuses an expired token and sweeps expired ones away', async () => {
    const db = server.deps.db;
    const { token } = await issueRefreshToken(db, userId);
    const live = await issueRefreshToken(db, userId);
    await db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.tokenHash, createHash('sha256').update(token).digest('hex')));
    expect(await rotateRefreshToken(db, token)).toBeNull();
    expect(await currentRefreshToken(db, token)).toBeNull();

    const before = await db.select().from(refreshTokens);
    await deleteExpiredRefreshTokens(db);
    const after = await db.select().from(refreshTokens);
    expect(after.length).toBe(before.length - 1);
    expect(await currentRefreshToken(db, live.token)).toMatchObject({ userId });
  });
});
