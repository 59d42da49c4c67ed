import { describe, expect, it } from 'vitest';
import {
  PENDING_REQUESTS_MAX,
  peopleEvents,
  type Friend,
  type FriendRequests,
  type RecentPartner,
  type UserProfile,
} from '@parley/contract/people';
import { notificationEvents, type AppNotification, type NotificationPage } from '@parley/contract/notifications';
import { tokenUserOf } from '../db/accounts.ts';
import { friendRequests } from '../db/schema.ts';
import { next, socketTestServer } from '../testing/socketClients.ts';
import { member, type Member } from '../testing/people.ts';
import { areFriends, friendIdsOf } from './friendships.ts';
import { ALREADY_RATED, NOT_YOUR_PARTNER } from './encounters.ts';
import { REQUESTS_CLOSED, REQUESTS_PARTNERS_ONLY, TOO_MANY_PENDING } from './friends.ts';

describe('friends, recent partners and ratings', () => {
  const clients = socketTestServer();
  const server = () => clients.server();

  const ask = (from: Member, to: Member) => from.call('/api/friends/requests', { method: 'POST', json: { username: to.username } });
  const requestsOf = async (m: Member) => (await (await m.call('/api/friends/requests')).json()) as FriendRequests;

  it('goes through the whole lifecycle: request, notification, accept, unfriend', async () => {
    const [ana, bob] = [await member(server()), await member(server())];
    const bobSocket = await clients.open(tokenUserOf(bob));
    const live = next<AppNotification>(bobSocket, notificationEvents.created);
    const res = await ask(ana, bob);
    expect(res.status).toBe(201);
    expect(await live).toMatchObject({ kind: 'friendRequest', link: `/users/${ana.username}`, read: false });
    const page = (await (await bob.call('/api/notifications')).json()) as NotificationPage;
    expect(page.unread).toBe(1);
    expect(page.notificationList[0]!.text).toBe(`${ana.username} wants to be your friend`);
    // Asking twice is a conflict.
    expect((await ask(ana, bob)).status).toBe(409);
    const { incoming } = await requestsOf(bob);
    expect(incoming).toHaveLength(1);
    expect((await requestsOf(ana)).outgoing[0]!.to.username).toBe(bob.username);
    expect(((await (await bob.call(`/api/users/${ana.username}`)).json()) as UserProfile).relation).toBe('requestReceived');

    const accepted = bob.call(`/api/friends/requests/${incoming[0]!.requestId}/answer`, { method: 'POST', json: { accept: true } });
    expect((await accepted).status).toBe(204);
    expect(await areFriends(server().deps.db, ana.id, bob.id)).toBe(true);
    const anaNotes = (await (await ana.call('/api/notifications')).json()) as NotificationPage;
    expect(anaNotes.notificationList[0]).toMatchObject({ kind: 'friendAccepted', link: `/users/${bob.username}` });
    const friends = (await (await ana.call('/api/friends')).json()) as Friend[];
    expect(friends).toEqual([expect.objectContaining({ username: bob.username, online: true })]);
    // Friends see each other's friends list and private fields.
    const card = (await (await ana.call(`/api/users/${bob.username}`)).json()) as UserProfile;
    expect(card.relation).toBe('friend');
    expect(card.friendsList?.map((f) => f.username)).toEqual([ana.username]);

    expect((await ana.call(`/api/friends/${bob.username}`, { method: 'DELETE' })).status).toBe(204);
    expect(await areFriends(server().deps.db, ana.id, bob.id)).toBe(false);
    expect((await ana.call(`/api/friends/${bob.username}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('gives the friend ids of many users in one lookup, for presence', async () => {
    const [ana, bob, cy, dan] = [await member(server()), await member(server()), await member(server()), await member(server())];
    const befriend = async (a: Member, b: Member) => {
      expect((await ask(a, b)).status).toBe(201);
      const { incoming } = await requestsOf(b);
      await b.call(`/api/friends/requests/${incoming[0]!.requestId}/answer`, { method: 'POST', json: { accept: true } });
    };
    await befriend(ana, bob);
    await befriend(cy, ana);
    const ids = await friendIdsOf(server().deps.db, [ana.id, bob.id, dan.id]);
    expect(ids.get(ana.id)?.sort()).toEqual([bob.id, cy.id].sort());
    expect(ids.get(bob.id)).toEqual([ana.id]);
    expect(ids.get(dan.id)).toEqual([]);
    expect(await friendIdsOf(server().deps.db, [])).toEqual(new Map());
  });

  it('declines and cancels; nobody else can answer or cancel a request (IDOR)', async () => {
    const [ana, bob, eve] = [await member(server()), await member(server()), await member(server())];
    await ask(ana, bob);
    const id = (await requestsOf(bob)).incoming[0]!.requestId;
    // Eve knows the id: she can neither answer nor cancel it; nor can the sender answer it.
    expect((await eve.call(`/api/friends/requests/${id}/answer`, { method: 'POST', json: { accept: true } })).status).toBe(404);
    expect((await eve.call(`/api/friends/requests/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await ana.call(`/api/friends/requests/${id}/answer`, { method: 'POST', json: { accept: true } })).status).toBe(404);
    expect((await bob.call(`/api/friends/requests/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect(await areFriends(server().deps.db, ana.id, eve.id)).toBe(false);
    expect(await areFriends(server().deps.db, ana.id, bob.id)).toBe(false);
    expect((await bob.call(`/api/friends/requests/${id}/answer`, { method: 'POST', json: { accept: false } })).status).toBe(204);
    expect((await requestsOf(ana)).outgoing).toHaveLength(0);
    await ask(ana, bob);
    const again = (await requestsOf(ana)).outgoing[0]!.requestId;
    expect((await ana.call(`/api/friends/requests/${again}`, { method: 'DELETE' })).status).toBe(204);
    expect((await requestsOf(bob)).incoming).toHaveLength(0);
    expect((await ana.call('/api/friends/requests/not-a-uuid', { method: 'DELETE' })).status).toBe(400);
  });

  it('makes friends at once when the other side had already asked', async () => {
    const [ana, bob] = [await member(server()), await member(server())];
    await ask(ana, bob);
    const res = await ask(bob, ana);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'friends' });
    expect(await areFriends(server().deps.db, ana.id, bob.id)).toBe(true);
  });

  it('keeps to the privacy setting, blocks and the pending-request limit', async () => {
    const [ana, bob, shy] = [await member(server()), await member(server()), await member(server())];
    expect((await ask(ana, ana)).status).toBe(400);
    await shy.call('/api/settings', { method: 'PATCH', json: { privacy: { profileVisibleTo: 'everyone', friendRequestsFrom: 'nobody' } } });
    expect(await (await ask(ana, shy)).json()).toEqual({ message: REQUESTS_CLOSED, code: 'requests_closed' });
    await shy.call('/api/settings', {
      method: 'PATCH',
      json: { privacy: { profileVisibleTo: 'everyone', friendRequestsFrom: 'partners' } },
    });
    expect(((await (await ask(ana, shy)).json()) as { message: string }).message).toBe(REQUESTS_PARTNERS_ONLY);
    await bob.call('/api/settings/blocks', { method: 'POST', json: { username: ana.username } });
    expect((await ask(ana, bob)).status).toBe(403);
    const many = await member(server());
    const others = await Promise.all(Array.from({ length: PENDING_REQUESTS_MAX }, () => member(server())));
    await server()
      .deps.db.insert(friendRequests)
      .values(others.map((o) => ({ fromId: many.id, toId: o.id })));
    const over = await ask(many, ana);
    expect(over.status).toBe(429);
    expect(((await over.json()) as { message: string }).message).toBe(TOO_MANY_PENDING);
  });

  it('lists the partners of the last day, lets each side rate the other once per room, and only them', async () => {
    const [ana, bob, eve] = [await member(server()), await member(server()), await member(server())];
    const { ra } = await clients.pair(tokenUserOf(ana), tokenUserOf(bob), { roomType: 'textChat' }, { roomType: 'textChat' });
    let recent: RecentPartner[] = [];
    for (let i = 0; i < 50 && recent.length === 0; i++) {
      recent = (await (await ana.call('/api/friends/recent')).json()) as RecentPartner[];
      if (!recent.length) await new Promise((r) => setTimeout(r, 20));
    }
    expect(recent).toEqual([
      expect.objectContaining({ username: bob.username, roomId: ra.roomId, kind: 'textChat', relation: 'none', rated: false }),
    ]);
    // Eve was not in the room: she cannot rate either of them for it.
    const eveRates = await eve.call('/api/ratings', { method: 'POST', json: { roomId: ra.roomId, username: bob.username, value: 'down' } });
    expect(eveRates.status).toBe(404);
    expect(((await eveRates.json()) as { message: string }).message).toBe(NOT_YOUR_PARTNER);
    const rate = (m: Member, value: string) =>
      m.call('/api/ratings', { method: 'POST', json: { roomId: ra.roomId, username: m === ana ? bob.username : ana.username, value } });
    expect((await rate(ana, 'up')).status).toBe(201);
    const twice = await rate(ana, 'down');
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as { message: string }).message).toBe(ALREADY_RATED);
    expect((await rate(bob, 'down')).status).toBe(201);
    expect((await rate(bob, 'sideways')).status).toBe(400);
    const bobCard = (await (await eve.call(`/api/users/${bob.username}`)).json()) as UserProfile;
    expect(bobCard.rating).toEqual({ up: 1, down: 0 });
    expect(JSON.stringify(bobCard)).not.toContain(ana.id);
    expect(((await (await ana.call('/api/friends/recent')).json()) as RecentPartner[])[0]!.rated).toBe(true);
    // A friend request from the recent-partners list reaches someone who takes them from partners only.
    await bob.call('/api/settings', {
      method: 'PATCH',
      json: { privacy: { profileVisibleTo: 'everyone', friendRequestsFrom: 'partners' } },
    });
    expect((await ask(ana, bob)).status).toBe(201);
    expect((await eve.call('/api/friends/recent').then((r) => r.json())) as RecentPartner[]).toEqual([]);
  });

  it("tells a user's friends when they come online and go offline", async () => {
    const [ana, bob] = [await member(server()), await member(server())];
    await ask(ana, bob);
    await ask(bob, ana);
    const anaSocket = await clients.open(tokenUserOf(ana));
    const online = next<{ userId: string; online: boolean }>(anaSocket, peopleEvents.friendPresence, (p) => p.userId === bob.id);
    const bobSocket = await clients.open(tokenUserOf(bob));
    expect(await online).toEqual({ userId: bob.id, online: true });
    const offline = next<{ userId: string; online: boolean }>(
      anaSocket,
      peopleEvents.friendPresence,
      (p) => p.userId === bob.id && !p.online,
    );
    bobSocket.disconnect();
    expect(await offline).toEqual({ userId: bob.id, online: false });
  });
});
