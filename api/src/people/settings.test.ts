import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { OwnProfile, PersonSummary, Settings } from '@parley/contract/people';
import { authEvents } from '@parley/contract/auth';
import { tokenUserOf } from '../db/accounts.ts';
import { friendRequests, pushSubscriptions, roomMembers, roomReactions, subscriptions, users } from '../db/schema.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';
import type { MessagePage } from '@parley/contract/rooms';
import { next, refreshCookieHeader, socketTestServer } from '../testing/socketClients.ts';
import { member } from '../testing/people.ts';
import { areFriends } from './friendships.ts';
import { FACTOR_ERR } from '@parley/contract/factors';
import { accounts, SUBSCRIPTION_RENEWS } from './account.ts';

const PASSWORD = 'correct horse battery';

describe('settings, password, blocks, export and account deletion', () => {
  const clients = socketTestServer();
  const server = () => clients.server();
  const rig = storedRoomRig(server, (u) => clients.open(u));

  const login = async (username: string, password = PASSWORD) => {
    const res = await server().api('/api/auth/login', { method: 'POST', json: { username, password } });
    return {
      status: res.status,
      token: res.ok ? ((await res.json()) as { accessToken: string }).accessToken : '',
      cookie: res.ok ? refreshCookieHeader(res) : undefined,
    };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('answers defaults, saves a group of settings, and refuses what does not parse', async () => {
    const ana = await member(server());
    const s = (await (await ana.call('/api/settings')).json()) as Settings;
    expect(s.notifications.directMessage).toEqual({ inApp: true, push: true });
    expect(s.chatFilters).toEqual({ gender: 'All', minAge: 18, maxAge: 99, topics: [] });
    const quiet = { start: '22:00', end: '07:30', timeZone: 'Europe/Paris' };
    const saved = (await (await ana.call('/api/settings', { method: 'PATCH', json: { quietHours: quiet } })).json()) as Settings;
    expect(saved.quietHours).toEqual(quiet);
    expect(saved.chatFilters.maxAge).toBe(99);
    for (const bad of [
      { quietHours: { start: '25:00', end: '07:00', timeZone: 'Europe/Paris' } },
      { quietHours: { start: '22:00', end: '07:00', timeZone: 'Mars/Olympus' } },
      { chatFilters: { gender: 'All', minAge: 40, maxAge: 20, topics: [] } },
      { theme: 'dark' },
    ]) {
      const res = await ana.call('/api/settings', { method: 'PATCH', json: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('keeps the interface language chosen in the app with the account, and refuses one Parley does not ship', async () => {
    const ana = await member(server());
    expect(((await (await ana.call('/api/settings')).json()) as Settings).locale).toBeNull();
    const saved = (await (await ana.call('/api/settings', { method: 'PATCH', json: { locale: 'pt-BR' } })).json()) as Settings;
    expect(saved.locale).toBe('pt-BR');
    for (const bad of ['xx', 'pt', '', 42, { code: 'ar' }]) {
      const res = await ana.call('/api/settings', { method: 'PATCH', json: { locale: bad } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect(((await (await ana.call('/api/settings')).json()) as Settings).locale).toBe('pt-BR');
    const reset = (await (await ana.call('/api/settings', { method: 'PATCH', json: { locale: null } })).json()) as Settings;
    expect(reset.locale).toBeNull();
    // Someone else's settings stay their own.
    const bo = await member(server());
    expect(((await (await bo.call('/api/settings')).json()) as Settings).locale).toBeNull();
  });

  it('keeps both of two groups saved at the same moment', async () => {
    const ana = await member(server());
    await Promise.all([
      ana.call('/api/settings', { method: 'PATCH', json: { privacy: { profileVisibleTo: 'friends', friendRequestsFrom: 'partners' } } }),
      ana.call('/api/settings', { method: 'PATCH', json: { quietHours: { start: '23:00', end: '06:00', timeZone: 'UTC' } } }),
      ana.call('/api/settings', { method: 'PATCH', json: { devices: { camera: 'cam-1', microphone: null } } }),
    ]);
    const s = (await (await ana.call('/api/settings')).json()) as Settings;
    expect(s.privacy).toEqual({ profileVisibleTo: 'friends', friendRequestsFrom: 'partners', hideReadReceipts: false });
    expect(s.quietHours?.start).toBe('23:00');
    expect(s.devices.camera).toBe('cam-1');
  });

  it('changes the password only with the current one, and signs out the other sign-ins', async () => {
    const ana = await member(server(), { password: PASSWORD });
    const here = await login(ana.username);
    const elsewhere = await login(ana.username);
    const otherSocket = await clients.open(tokenUserOf(ana), { token: elsewhere.token });
    const ended = next(otherSocket, authEvents.sessionEnd);
    const wrong = await server().api('/api/auth/password', {
      method: 'POST',
      headers: bearer(here.token),
      json: { currentPassword: 'nope', newPassword: 'a brand new one' },
    });
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as { message: string }).message).toBe(FACTOR_ERR.wrongPassword);
    const short = await server().api('/api/auth/password', {
      method: 'POST',
      headers: bearer(here.token),
      json: { currentPassword: PASSWORD, newPassword: 'short' },
    });
    expect(short.status).toBe(400);
    const ok = await server().api('/api/auth/password', {
      method: 'POST',
      headers: bearer(here.token),
      json: { currentPassword: PASSWORD, newPassword: 'a brand new one' },
    });
    expect(ok.status).toBe(204);
    await ended;
    // The other sign-in's access token and refresh cookie no longer work; this one's still do.
    expect((await server().api('/api/profile', { headers: bearer(elsewhere.token) })).status).toBe(401);
    expect((await server().api('/api/auth/refresh', { headers: { cookie: elsewhere.cookie! } })).status).toBe(401);
    expect((await server().api('/api/profile', { headers: bearer(here.token) })).status).toBe(200);
    expect((await login(ana.username)).status).toBe(401);
    expect((await login(ana.username, 'a brand new one')).status).toBe(200);
  });

  it('blocks and unblocks: the friendship and pending requests end, the list shows who', async () => {
    const [ana, bob, cat] = [await member(server()), await member(server()), await member(server())];
    await ana.call('/api/friends/requests', { method: 'POST', json: { username: bob.username } });
    await bob.call('/api/friends/requests', { method: 'POST', json: { username: ana.username } });
    await cat.call('/api/friends/requests', { method: 'POST', json: { username: ana.username } });
    expect(await areFriends(server().deps.db, ana.id, bob.id)).toBe(true);
    expect((await ana.call('/api/settings/blocks', { method: 'POST', json: { username: bob.username } })).status).toBe(204);
    expect((await ana.call('/api/settings/blocks', { method: 'POST', json: { username: cat.username } })).status).toBe(204);
    expect(await areFriends(server().deps.db, ana.id, bob.id)).toBe(false);
    expect(await server().deps.db.select().from(friendRequests).where(eq(friendRequests.fromId, cat.id))).toEqual([]);
    const blocked = (await (await ana.call('/api/settings/blocks')).json()) as PersonSummary[];
    expect(blocked.map((b) => b.username).sort()).toEqual([bob.username, cat.username].sort());
    // Bob cannot unblock himself from Ana's list.
    expect((await bob.call(`/api/settings/blocks/${bob.username}`, { method: 'DELETE' })).status).toBe(404);
    expect((await ana.call(`/api/settings/blocks/${bob.username}`, { method: 'DELETE' })).status).toBe(204);
    expect(((await (await ana.call('/api/settings/blocks')).json()) as PersonSummary[]).map((b) => b.username)).toEqual([cat.username]);
  });

  it('exports everything stored about the user, and only theirs', async () => {
    const [ana, bob] = [
      await member(server(), { password: PASSWORD, description: 'my own words' }),
      await member(server(), { description: 'bob words' }),
    ];
    await ana.call('/api/friends/requests', { method: 'POST', json: { username: bob.username } });
    // What Ana wrote in a group room, and what Bob wrote there (not hers to download).
    const room = (await (await ana.call('/api/groups', { method: 'POST', json: { name: 'Export room', category: 'Music' } })).json()) as {
      roomId: string;
    };
    await rig.seed(room.roomId, ana.id, ['my words in a room']);
    await rig.seed(room.roomId, bob.id, ['bob said this']);
    const res = await ana.call('/api/settings/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const data = (await res.json()) as Record<string, unknown>;
    expect(data.account).toMatchObject({ id: ana.id, username: ana.username, description: 'my own words', hasPassword: true });
    expect(data).toHaveProperty('settings');
    expect(data.friendRequests).toEqual([expect.objectContaining({ fromId: ana.id, toId: bob.id })]);
    expect(data.rooms).toEqual([expect.objectContaining({ roomId: room.roomId, kind: 'group', role: 'owner' })]);
    expect(data.messagesSent).toEqual([expect.objectContaining({ roomId: room.roomId, text: 'my words in a room' })]);
    for (const key of ['wallet', 'missionEvents', 'purchases', 'billing', 'reportsFiled', 'moderationActions', 'appeals', 'liveFollows'])
      expect(data, key).toHaveProperty(key);
    const text = JSON.stringify(data);
    expect(text).not.toContain('argon2');
    expect(text).not.toContain('bob words');
    expect(text).not.toContain('bob said this');
  });

  it('will not delete an account whose paid subscription still renews, until it is cancelled', async () => {
    const ana = await member(server(), { password: PASSWORD });
    const sub = {
      stripeSubscriptionId: `sub_${ana.id.slice(0, 8)}`,
      userId: ana.id,
      tier: 'plus' as const,
      billingCycle: 'monthly' as const,
    };
    await server()
      .deps.db.insert(subscriptions)
      .values({ ...sub, status: 'active' });
    const refused = await ana.call('/api/settings/delete-account', { method: 'POST', json: { password: PASSWORD } });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: SUBSCRIPTION_RENEWS, code: 'subscription_renews' });
    expect((await ana.call('/api/profile')).status).toBe(200);
    // Cancelled (it runs to the end of the period, then stops): the account can go.
    await server().deps.db.update(subscriptions).set({ cancelledAt: new Date() }).where(eq(subscriptions.userId, ana.id));
    expect((await ana.call('/api/settings/delete-account', { method: 'POST', json: { password: PASSWORD } })).status).toBe(204);
  });

  it('deletes an account after the password: data gone, sessions ended, username reserved, then freed', async () => {
    const ana = await member(server(), { password: PASSWORD, description: 'gone soon' });
    const bob = await member(server());
    await ana.call('/api/friends/requests', { method: 'POST', json: { username: bob.username } });
    await bob.call('/api/friends/requests', { method: 'POST', json: { username: ana.username } });
    await server()
      .deps.db.insert(pushSubscriptions)
      .values({ userId: ana.id, endpoint: 'https://push.example.com/x', p256dh: 'k', auth: 'a' });
    // Bob's group, where Ana wrote and reacted.
    const room = (await (await bob.call('/api/groups', { method: 'POST', json: { name: 'Left behind', category: 'Music' } })).json()) as {
      roomId: string;
    };
    expect((await ana.call(`/api/groups/${room.roomId}/join`, { method: 'POST', json: {} })).status).toBe(200);
    await rig.seed(room.roomId, ana.id, ['words of a leaver']);
    const [written] = ((await (await bob.call(`/api/rooms/${room.roomId}/messages`)).json()) as MessagePage).messages;
    await server().deps.db.insert(roomReactions).values({ roomId: room.roomId, messageId: written!.id, userId: ana.id, emoji: '👍' });
    const socket = await clients.open(tokenUserOf(ana));
    const ended = next(socket, authEvents.sessionEnd);
    expect((await ana.call('/api/settings/delete-account', { method: 'POST', json: { password: 'wrong' } })).status).toBe(403);
    expect((await ana.call('/api/settings/delete-account', { method: 'POST', json: {} })).status).toBe(400);
    expect((await ana.call('/api/settings/delete-account', { method: 'POST', json: { password: PASSWORD } })).status).toBe(204);
    await ended;
    expect((await ana.call('/api/profile')).status).toBe(401);
    expect((await login(ana.username)).status).toBe(401);
    expect((await bob.call(`/api/users/${ana.username}`)).status).toBe(404);
    expect(await areFriends(server().deps.db, ana.id, bob.id)).toBe(false);
    expect(await server().deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, ana.id))).toEqual([]);
    // Her message stays in Bob's room only as deleted, its words gone; her membership and reaction too.
    const history = (await (await bob.call(`/api/rooms/${room.roomId}/messages`)).json()) as MessagePage;
    expect(history.messages).toEqual([expect.objectContaining({ id: written!.id, deleted: true, text: '' })]);
    expect(JSON.stringify(history)).not.toContain('words of a leaver');
    expect(await server().deps.db.select().from(roomMembers).where(eq(roomMembers.userId, ana.id))).toEqual([]);
    expect(await server().deps.db.select().from(roomReactions).where(eq(roomReactions.userId, ana.id))).toEqual([]);
    const [row] = await server().deps.db.select().from(users).where(eq(users.id, ana.id));
    expect(row).toMatchObject({ passwordHash: null, description: '', deletedAt: expect.any(Date) });
    // Reserved: nobody can sign up under the name yet.
    const taken = await server().signup({ username: ana.username, password: PASSWORD, age: 30, gender: 'male' });
    expect(taken.status).toBe(409);
    // Thirty days later the sweep frees it.
    await server()
      .deps.db.update(users)
      .set({ deletedAt: sql`now() - interval '31 days'` })
      .where(eq(users.id, ana.id));
    await accounts(server().deps.db, { blocksChanged: () => undefined }).sweep();
    const free = await server().signup({ username: ana.username, password: PASSWORD, age: 30, gender: 'male' });
    expect(free.status).toBe(201);
    const own = (await (
      await server().api('/api/profile', { headers: bearer(((await free.json()) as { accessToken: string }).accessToken) })
    ).json()) as OwnProfile;
    expect(own.description).toBe('');
  });
});
