import { aliasedTable, and, count, desc, eq, isNull, or } from 'drizzle-orm';
import { PENDING_REQUESTS_MAX, peopleEvents, type Friend, type FriendRequest, type FriendRequests } from '@parley/contract/people';
import type { Db } from '../db/client.ts';
import { encounters, friendRequests, friendships, users } from '../db/schema.ts';
import { settingsFrom } from '../db/settings.ts';
import { DomainError } from '../platform/errors.ts';
import { words, type Words } from '../platform/i18n/i18n.ts';
import { friendPair } from './friendships.ts';
import { oneToOne } from './encounters.ts';
import { accountNamed, friendsOf, liveAccount } from './profiles.ts';
import { eitherWay, relationOf } from './relations.ts';

const FRIEND_REQUEST = /*i18n*/ { id: 'notice.friendRequest', message: '{name} wants to be your friend' };
const FRIEND_ACCEPTED = /*i18n*/ { id: 'notice.friendAccepted', message: '{name} accepted your friend request' };
/** What the friends area needs of the rest of the server: telling people, and who is online. */
export type FriendsIo = {
  notify(userId: string, notice: { kind: 'friendRequest' | 'friendAccepted'; words: Words; link: string }): Promise<unknown>;
  toUser(userId: string, event: string, payload: unknown): void;
  isOnline(userId: string): Promise<boolean>;
  /** After a friendship committed. */
  befriended?(a: string, b: string): void;
  /** After a friendship ended: their direct conversation no longer takes messages. */
  unfriended?(a: string, b: string): void;
  /** Resolves once the encounters this process was told of are stored (they are written in batches). */
  encountersWritten?(): Promise<void>;
};

export const REQUESTS_CLOSED = 'This person is not taking friend requests.';
export const REQUESTS_PARTNERS_ONLY = 'This person takes friend requests only from people they have chatted with.';
export const TOO_MANY_PENDING = `You have ${PENDING_REQUESTS_MAX} friend requests waiting for an answer. Wait for some answers, or cancel a few.`;
const REQUEST_GONE = 'This friend request is no longer waiting for an answer.';

const requestGone = () => new DomainError('not_found', REQUEST_GONE, 'request_not_found');

/** Friend requests (send, accept, decline, cancel) and friendships (list, unfriend). */
export function friends(db: Db, io: FriendsIo) {
  const changed = (...userIds: string[]) => {
    for (const id of userIds) io.toUser(id, peopleEvents.friendsChanged, {});
  };

  const befriend = async (a: string, b: string) => {
    await db.transaction(async (tx) => {
      await tx.delete(friendRequests).where(eitherWay(friendRequests.fromId, friendRequests.toId, a, b));
      await tx.insert(friendships).values(friendPair(a, b)).onConflictDoNothing();
    });
    io.befriended?.(a, b);
  };

  const accepted = async (accepterId: string, requesterId: string) => {
    const accepter = await liveAccount(db, accepterId);
    changed(accepterId, requesterId);
    await io.notify(requesterId, {
      kind: 'friendAccepted',
      words: words(FRIEND_ACCEPTED, { name: accepter.username }),
      link: `/users/${accepter.username}`,
    });
  };

  return {
    /** Sends a request; one to someone who already asked me makes us friends at once. */
    async request(fromId: string, username: string): Promise<{ status: 'sent' | 'friends' }> {
      const me = await liveAccount(db, fromId);
      const them = await accountNamed(db, username);
      if (them.id === fromId) throw new DomainError('invalid', 'You cannot send a friend request to yourself.', 'self_request');
      const relation = await relationOf(db, fromId, them.id);
      if (relation === 'blocked') throw new DomainError('forbidden', REQUESTS_CLOSED, 'requests_closed');
      if (relation === 'friend') throw new DomainError('conflict', `You and ${them.username} are already friends.`, 'already_friends');
      if (relation === 'requestSent')
        throw new DomainError('conflict', `Your request to ${them.username} is waiting for an answer.`, 'already_requested');
      if (relation === 'requestReceived') {
        await befriend(fromId, them.id);
        await accepted(fromId, them.id);
        return { status: 'friends' };
      }
      const from = settingsFrom(them.settings).privacy.friendRequestsFrom;
      if (from === 'nobody') throw new DomainError('forbidden', REQUESTS_CLOSED, 'requests_closed');
      if (from === 'partners') {
        await io.encountersWritten?.();
        const [met] = await db
          .select({ roomId: encounters.roomId })
          .from(encounters)
          .where(and(eq(encounters.userId, them.id), eq(encounters.partnerId, fromId), oneToOne))
          .limit(1);
        if (!met) throw new DomainError('forbidden', REQUESTS_PARTNERS_ONLY, 'requests_partners_only');
      }
      const [{ pending } = { pending: 0 }] = await db
        .select({ pending: count() })
        .from(friendRequests)
        .where(eq(friendRequests.fromId, fromId));
      if (pending >= PENDING_REQUESTS_MAX) throw new DomainError('too_many', TOO_MANY_PENDING, 'too_many_pending');
      const inserted = await db
        .insert(friendRequests)
        .values({ fromId, toId: them.id })
        .onConflictDoNothing()
        .returning({ id: friendRequests.id });
      if (inserted.length === 0)
        throw new DomainError('conflict', `Your request to ${them.username} is waiting for an answer.`, 'already_requested');
      changed(fromId, them.id);
      await io.notify(them.id, {
        kind: 'friendRequest',
        words: words(FRIEND_REQUEST, { name: me.username }),
        link: `/users/${me.username}`,
      });
      return { status: 'sent' };
    },

    /** Accepts or declines a request sent to me; anyone else's request is not found. */
    async answer(userId: string, requestId: string, accept: boolean): Promise<void> {
      const [req] = await db
        .delete(friendRequests)
        .where(and(eq(friendRequests.id, requestId), eq(friendRequests.toId, userId)))
        .returning();
      if (!req) throw requestGone();
      if (!accept) return changed(userId, req.fromId);
      await befriend(userId, req.fromId);
      await accepted(userId, req.fromId);
    },

    /** Withdraws a request I sent. */
    async cancel(userId: string, requestId: string): Promise<void> {
      const [req] = await db
        .delete(friendRequests)
        .where(and(eq(friendRequests.id, requestId), eq(friendRequests.fromId, userId)))
        .returning();
      if (!req) throw requestGone();
      changed(userId, req.toId);
    },

    async unfriend(userId: string, username: string): Promise<void> {
      const them = await accountNamed(db, username);
      const pair = friendPair(userId, them.id);
      const rows = await db
        .delete(friendships)
        .where(and(eq(friendships.userLow, pair.userLow), eq(friendships.userHigh, pair.userHigh)))
        .returning();
      if (rows.length === 0) throw new DomainError('not_found', `You and ${them.username} are not friends.`, 'not_friends');
      io.unfriended?.(userId, them.id);
      changed(userId, them.id);
    },

    async list(userId: string): Promise<Friend[]> {
      const list = await friendsOf(db, userId);
      return Promise.all(
        list.map(async (f) => ({
          userId: f.userId,
          username: f.username,
          avatar: f.avatar,
          since: f.since.toISOString(),
          online: await io.isOnline(f.userId),
        })),
      );
    },

    async requests(userId: string): Promise<FriendRequests> {
      const from = aliasedTable(users, 'from_user');
      const to = aliasedTable(users, 'to_user');
      const rows = await db
        .select({ id: friendRequests.id, createdAt: friendRequests.createdAt, from, to })
        .from(friendRequests)
        .innerJoin(from, eq(from.id, friendRequests.fromId))
        .innerJoin(to, eq(to.id, friendRequests.toId))
        .where(and(or(eq(friendRequests.fromId, userId), eq(friendRequests.toId, userId)), isNull(from.deletedAt), isNull(to.deletedAt)))
        .orderBy(desc(friendRequests.createdAt));
      const toRequest = (r: (typeof rows)[number]): FriendRequest => ({
        requestId: r.id,
        createdAt: r.createdAt.toISOString(),
        from: { userId: r.from.id, username: r.from.username, avatar: r.from.avatar },
        to: { userId: r.to.id, username: r.to.username, avatar: r.to.avatar },
      });
      return {
        incoming: rows.filter((r) => r.to.id === userId).map(toRequest),
        outgoing: rows.filter((r) => r.from.id === userId).map(toRequest),
      };
    },
  };
}
export type Friends = ReturnType<typeof friends>;
