import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SAFETY_ERR } from '@parley/contract/safety';
import { insertAccount } from '../db/accounts.ts';
import { appeals, moderationActions, users } from '../db/schema.ts';
import { person, socketTestServer } from '../testing/socketClients.ts';

const t = socketTestServer();

async function staff(role: 'user' | 'moderator' | 'admin') {
  const user = person();
  await insertAccount(t.server().deps.db, {
    id: user.userId,
    username: user.username,
    passwordHash: null,
    age: 30,
    gender: 'other',
    isVerified: true,
    role,
    twoFactorAt: role === 'user' ? null : new Date(),
  });
  const authorization = `Bearer ${await t.server().deps.tokens.sign(user)}`;
  const call = (path: string, json: unknown) => t.server().api(path, { method: 'POST', json, headers: { authorization } });
  return { user, call };
}

const decide = (actor: Awaited<ReturnType<typeof staff>>, userId: string, action: 'dismiss' | 'warn' | 'suspend' | 'ban') =>
  actor.call('/api/moderation/decisions', { userId, action, rule: 'respect', ...(action === 'suspend' && { hours: 24 }) });

async function refused(res: Response, message: string) {
  expect(res.status).toBe(403);
  expect(((await res.json()) as { message: string }).message).toBe(message);
}

const roleOf = async (userId: string) =>
  (await t.server().deps.db.select({ role: users.role, bannedAt: users.bannedAt }).from(users).where(eq(users.id, userId)))[0]!;

describe('staff act only on lower roles', () => {
  it('refuses a moderator every decision on an admin or another moderator', async () => {
    const mod = await staff('moderator');
    const admin = await staff('admin');
    const otherMod = await staff('moderator');
    for (const action of ['ban', 'suspend', 'warn', 'dismiss'] as const) {
      await refused(await decide(mod, admin.user.userId, action), SAFETY_ERR.onAdmin);
      await refused(await decide(mod, otherMod.user.userId, action), SAFETY_ERR.moderatorOnModerator);
    }
    expect(await roleOf(admin.user.userId)).toEqual({ role: 'admin', bannedAt: null });
    expect(await roleOf(otherMod.user.userId)).toEqual({ role: 'moderator', bannedAt: null });
    const audit = await t.server().deps.db.select().from(moderationActions).where(eq(moderationActions.moderatorId, mod.user.userId));
    expect(audit).toHaveLength(0);
    // Users remain theirs to decide on.
    const someone = await staff('user');
    expect((await decide(mod, someone.user.userId, 'warn')).status).toBe(201);
  });

  it('lets an admin decide on a moderator, never on another admin', async () => {
    const admin = await staff('admin');
    const mod = await staff('moderator');
    const otherAdmin = await staff('admin');
    expect((await decide(admin, mod.user.userId, 'suspend')).status).toBe(201);
    expect((await roleOf(mod.user.userId)).bannedAt).not.toBeNull();
    await refused(await decide(admin, otherAdmin.user.userId, 'ban'), SAFETY_ERR.onAdmin);
  });

  it('gives role changes and appeals about staff only to a higher role', async () => {
    const admin = await staff('admin');
    const mod = await staff('moderator');
    const otherMod = await staff('moderator');
    const otherAdmin = await staff('admin');
    // Only an admin reaches the roles route; an admin cannot demote another admin there.
    expect((await mod.call('/api/moderation/roles', { username: otherMod.user.username, role: 'user' })).status).toBe(403);
    await refused(await admin.call('/api/moderation/roles', { username: otherAdmin.user.username, role: 'user' }), SAFETY_ERR.onAdmin);
    expect((await roleOf(otherAdmin.user.userId)).role).toBe('admin');
    expect((await admin.call('/api/moderation/roles', { username: otherMod.user.username, role: 'user' })).status).toBe(204);
    expect((await roleOf(otherMod.user.userId)).role).toBe('user');

    // A suspended moderator's appeal: another moderator cannot grant it, an admin can.
    const suspended = await staff('moderator');
    const decided = await decide(admin, suspended.user.userId, 'suspend');
    const { id: actionId } = (await decided.json()) as { id: string };
    const [appeal] = await t
      .server()
      .deps.db.insert(appeals)
      .values({ userId: suspended.user.userId, actionId, text: 'I was set up by a troll, please look again.' })
      .returning({ id: appeals.id });
    await refused(await mod.call(`/api/moderation/appeals/${appeal!.id}`, { grant: true }), SAFETY_ERR.moderatorOnModerator);
    expect((await roleOf(suspended.user.userId)).bannedAt).not.toBeNull();
    expect((await admin.call(`/api/moderation/appeals/${appeal!.id}`, { grant: true })).status).toBe(204);
    expect((await roleOf(suspended.user.userId)).bannedAt).toBeNull();
  });
});
