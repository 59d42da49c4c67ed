import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { refreshTokens } from '../db/schema.ts';
import { insertAccount } from '../db/accounts.ts';
import { pastRefreshGrace } from '../testing/refreshGrace.ts';
import { currentRefreshToken, deleteExpiredRefreshTokens, issueRefreshToken, rotateRefreshToken } from './refreshTokens.ts';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

describe('refresh token store', () => {
  let server: TestServer;
  let userId: string;
  beforeAll(async () => {
    server = await startTestServer();
    userId = (await insertAccount(server.deps.db, { username: 'TokenHolder' })).id;
  });
  afterAll(() => server.close());

  it('rotates a token used twice at once (two tabs) for both, keeping the first rotation time', async () => {
    const db = server.deps.db;
    const { token } = await issueRefreshToken(db, userId);
    const [a, b] = await Promise.all([rotateRefreshToken(db, token), rotateRefreshToken(db, token)]);
    expect(a).toMatchObject({ userId });
    expect(b).toEqual(a);
    const [row] = await db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashOf(token)));
    expect(row!.revokedAt).toBeNull();
    const firstRotation = row!.rotatedAt!.getTime();
    await rotateRefreshToken(db, token);
    const [later] = await db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashOf(token)));
    expect(later!.rotatedAt!.getTime()).toBe(firstRotation);
  });

  it('treats a rotated token presented after the grace as theft and revokes the whole family', async () => {
    const db = server.deps.db;
    const { token, familyId } = await issueRefreshToken(db, userId);
    const successor = await issueRefreshToken(db, userId, familyId);
    expect(await rotateRefreshToken(db, token)).toMatchObject({ userId, familyId });
    await pastRefreshGrace(db);
    let stolen: string | undefined;
    expect(await rotateRefreshToken(db, token, (f) => (stolen = f))).toBeNull();
    expect(stolen).toBe(familyId);
    const family = await db.select().from(refreshTokens).where(eq(refreshTokens.familyId, familyId));
    expect(family.every((row) => row.revokedAt !== null)).toBe(true);
    expect(await rotateRefreshToken(db, successor.token)).toBeNull();
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
