import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, gte, inArray, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { GROUP_REFUSALS } from '@parley/contract/groups';
import { roomEvents as wire, type Moderation, type ModerationEntry, type RoomKind } from '@parley/contract/rooms';
import type { TokenUser } from '@parley/contract/auth';
import type { Db } from '../db/client.ts';
import { roomBans, roomMembers, roomModerationLog, roomMutes, storedRooms, users } from '../db/schema.ts';
import { DomainError } from '../platform/errors.ts';
import type { Limiter } from '../platform/rateLimit.ts';
import type { RoomCore } from './core.ts';
import { outranks, type Role } from './roles.ts';

type Action = Moderation['action'];

/** A fresh invite code for an invite-only room (made with it, and rotated by its moderators). */
export const newInviteCode = () => randomBytes(12).toString('base64url');

/** What only the owner may do; the rest is for the owner and moderators. */
const OWNER_ONLY = new Set<Action>(['appoint', 'dismiss', 'transfer', 'close']);
const EVERY_ACTION: ReadonlySet<Action> = new Set<Action>([
  'removeMessage',
  'mute',
  'unmute',
  'kick',
  'ban',
  'unban',
  'appoint',
  'dismiss',
  'slowMode',
  'readOnly',
  'transfer',
  'close',
  'rotateInvite',
]);

/** Moderation asks per person and minute, whichever room and way (socket or HTTP). */
export const MODERATION_PER_MINUTE = 120;

/** What changed, once stored: a kind that keeps a copy in memory (a live stream) follows it. */
export type ModerationChange =
  | { action: 'mute'; userId: string; mutedUntil: number | null }
  | { action: 'ban' | 'unban'; userId: string }
  | { action: 'role'; userId: string; moderator: boolean; username: string; avatar: string }
  | { action: 'settings'; slowModeS: number; readOnly: boolean };

/**
 * A room as moderation sees it: where its roles, mutes, bans, settings and record are stored, and
 * what its kind allows. A group room keeps them itself; a stream keeps them in its broadcaster's
 * channel, so they last from one stream to the next.
 */
export type ModeratedRoom = {
  kind: RoomKind;
  /** The stored room holding roles (room_members), mutes, bans, settings and the record. */
  storeId: string;
  closed: boolean;
  allows: ReadonlySet<Action>;
  /** Targets must be members of the stored room (a group's); a stream's viewers are nobody's members. */
  membersOnly: boolean;
  /** What moderation says about this kind of room, in whole sentences. */
  words: ModerationWords;
  refusals: { notModerator: string; notOwner: string };
  /** Told once a change is stored, before anyone hears of it (a stream's copy in memory, its video). */
  changed?(change: ModerationChange): void;
};

/** A kind's moderation (RoomPolicy.moderation): the room as moderation sees it, or null when it is not (or no longer) there. */
export type ModerationPolicy = { room(roomId: string): ModeratedRoom | null };

/**
 * Whether a room can be moderated (and so has slow mode, mutes and bans): a held kind through its
 * moderation policy (a stream), a stored room when it is a group. A 1:1 chat or a direct message never.
 */
export const moderatable = (kind: string, held: { moderation?: ModerationPolicy } | undefined): boolean =>
  held ? held.moderation !== undefined : kind === 'group';

/**
 * What moderation tells people about a kind of room, each a whole sentence (never a noun put into
 * one), so that the server's catalog words each in every language. Notes stay English: the page
 * words them itself from who did it and why.
 */
export type ModerationWords = {
  notIn: string;
  notHere: string;
  outranked: string;
  note(action: 'ban' | 'kick', by: string, reason: string): string;
  closed(by: string): string;
};

export const ROOM_WORDS: ModerationWords = {
  notIn: 'That person is not in this room.',
  notHere: 'That cannot be done in a room.',
  outranked: 'You cannot do this to the room owner or a fellow moderator.',
  note: (action, by, reason) =>
    action === 'ban'
      ? reason
        ? `${by} banned you from this room: ${reason}`
        : `${by} banned you from this room.`
      : reason
        ? `${by} removed you from this room: ${reason}`
        : `${by} removed you from this room.`,
  closed: (by) => `${by} closed this room.`,
};

export const STREAM_WORDS: ModerationWords = {
  notIn: 'That person is not in this stream.',
  notHere: 'That cannot be done in a stream.',
  outranked: 'You cannot do this to the broadcaster or a fellow moderator.',
  note: (action, by, reason) =>
    action === 'ban'
      ? reason
        ? `${by} banned you from this stream: ${reason}`
        : `${by} banned you from this stream.`
      : reason
        ? `${by} removed you from this stream: ${reason}`
        : `${by} removed you from this stream.`,
  closed: (by) => `${by} closed this stream.`,
};

const forbidden = (message: string, code = 'forbidden') => new DomainError('forbidden', message, code);
const unknownRoom = () => new DomainError('not_found', GROUP_REFUSALS.unknown, 'unknown_room');

/**
 * Moderation of every kind of room that has it (group rooms, streams' chats): one path for the
 * rank checks, the refusals, storing, the record and the notices to pages through the core. Every
 * action is checked against the actor's role read from the database.
 */
export function roomModeration(db: Db, core: () => RoomCore, limiter?: Limiter) {
  async function roleOf(storeId: string, userId: string): Promise<Role | null> {
    const [m] = await db
      .select({ role: roomMembers.role })
      .from(roomMembers)
      .where(and(eq(roomMembers.roomId, storeId), eq(roomMembers.userId, userId)));
    return m?.role ?? null;
  }

  async function person(userId: string) {
    const [u] = await db.select({ username: users.username, avatar: users.avatar }).from(users).where(eq(users.id, userId));
    if (!u) throw new DomainError('not_found', 'There is no such person.', 'unknown_user');
    return u;
  }

  async function record(storeId: string, actorId: string, action: string, targetUserId: string | null, detail = '') {
    await db.insert(roomModerationLog).values({ roomId: storeId, actorId, action, targetUserId, detail });
  }

  /** A group room read from the database; a stream from its kind's policy; anything else is no room to moderate. */
  async function place(roomId: string): Promise<ModeratedRoom | null> {
    const held = core().policyOf(roomId);
    if (held) return held.moderation?.room(roomId) ?? null;
    const [room] = await db
      .select({ kind: storedRooms.kind, closedAt: storedRooms.closedAt })
      .from(storedRooms)
      .where(eq(storedRooms.id, roomId));
    if (!room || !moderatable(room.kind, undefined)) return null;
    return {
      kind: 'group',
      storeId: roomId,
      closed: room.closedAt !== null,
      allows: EVERY_ACTION,
      membersOnly: true,
      words: ROOM_WORDS,
      refusals: { notModerator: GROUP_REFUSALS.notModerator, notOwner: GROUP_REFUSALS.notOwner },
    };
  }

  /** The room and the actor's role in it, refused unless they moderate it. */
  async function moderating(roomId: string, userId: string) {
    const room = await place(roomId);
    if (!room) throw unknownRoom();
    const role = await roleOf(room.storeId, userId);
    if (role === null || role === 'member') throw forbidden(room.refusals.notModerator, 'not_moderator');
    return { room, role };
  }

  /**
   * The target must be someone the actor outranks (a moderator cannot act on another moderator).
   * In a group they must be a member (`member`: kick, mute); a stream's viewer need only exist.
   */
  async function target(room: ModeratedRoom, actorRole: Role, userId: string, member = room.membersOnly): Promise<Role> {
    const role = await roleOf(room.storeId, userId);
    if (!role) {
      if (member) throw new DomainError('not_found', room.words.notIn, 'not_member');
      await person(userId);
      return 'member';
    }
    if (!outranks(actorRole, role)) throw forbidden(room.words.outranked, 'outranked');
    return role;
  }

  async function settings(roomId: string, room: ModeratedRoom) {
    const [r] = await db
      .select({ slowModeS: storedRooms.slowModeS, readOnly: storedRooms.readOnly, ownerId: storedRooms.ownerId })
      .from(storedRooms)
      .where(eq(storedRooms.id, room.storeId));
    if (!r) return;
    room.changed?.({ action: 'settings', slowModeS: r.slowModeS, readOnly: r.readOnly });
    // Slow mode, read-only and the owner decide who may post how often.
    core().accessChanged({ roomId });
    core().broadcast(roomId, wire.settings, { roomId, ...r });
    tellModerators(roomId, room.storeId);
  }

  /**
   * Whoever moderates the room sees its lists change at once, whichever of them acted and from
   * where. Not awaited by the action, which is stored by then: a notice lost to a failed read is
   * made up by the panel's own slower reading.
   */
  function tellModerators(roomId: string, storeId: string) {
    db.select({ userId: roomMembers.userId })
      .from(roomMembers)
      .where(and(eq(roomMembers.roomId, storeId), inArray(roomMembers.role, ['owner', 'moderator'])))
      .then((rows) =>
        core().restrictionsChanged(
          roomId,
          rows.map((r) => r.userId),
        ),
      )
      .catch(() => undefined);
  }

  async function entries(storeId: string, window?: { from: number; to: number }): Promise<ModerationEntry[]> {
    const actor = alias(users, 'actor');
    const targetUser = alias(users, 'target');
    const inWindow = window
      ? and(gte(roomModerationLog.createdAt, new Date(window.from)), lte(roomModerationLog.createdAt, new Date(window.to)))
      : undefined;
    const rows = await db
      .select({
        id: roomModerationLog.id,
        actor: actor.username,
        action: roomModerationLog.action,
        target: targetUser.username,
        detail: roomModerationLog.detail,
        at: roomModerationLog.createdAt,
      })
      .from(roomModerationLog)
      .leftJoin(actor, eq(actor.id, roomModerationLog.actorId))
      .leftJoin(targetUser, eq(targetUser.id, roomModerationLog.targetUserId))
      .where(and(eq(roomModerationLog.roomId, storeId), inWindow))
      .orderBy(desc(roomModerationLog.createdAt))
      .limit(200);
    return rows.map((r) => ({
      id: r.id,
      actor: r.actor ?? 'Someone',
      action: r.action as ModerationEntry['action'],
      target: r.target,
      detail: r.detail,
      at: r.at.getTime(),
    }));
  }

  return {
    async act(roomId: string, actor: TokenUser, m: Moderation): Promise<{ invite?: string }> {
      if (limiter) {
        const r = await limiter.take(actor.userId);
        if (!r.ok)
          throw new DomainError('too_many', 'Too many moderation actions. Wait a moment and try again.', 'rate_limited', r.retryAfterS);
      }
      const { room, role } = await moderating(roomId, actor.userId);
      if (room.closed) throw forbidden(GROUP_REFUSALS.closed, 'closed');
      if (!room.allows.has(m.action)) throw forbidden(room.words.notHere, 'not_allowed');
      if (OWNER_ONLY.has(m.action) && role !== 'owner') throw forbidden(room.refusals.notOwner, 'not_owner');
      const storeId = room.storeId;
      const memberWhere = (userId: string) => and(eq(roomMembers.roomId, storeId), eq(roomMembers.userId, userId));

      switch (m.action) {
        case 'removeMessage':
          // The core removes and records it, as for a moderator's room:delete.
          await core().remove(actor, roomId, m.messageId);
          return {};
        case 'mute': {
          await target(room, role, m.userId);
          const until = sql`now() + make_interval(mins => ${m.minutes})`;
          const [row] = await db
            .insert(roomMutes)
            .values({ roomId: storeId, userId: m.userId, mutedUntil: until })
            .onConflictDoUpdate({ target: [roomMutes.roomId, roomMutes.userId], set: { mutedUntil: until } })
            .returning({ mutedUntil: roomMutes.mutedUntil });
          await record(storeId, actor.userId, 'mute', m.userId, `${m.minutes} min`);
          const mutedUntil = row!.mutedUntil.getTime();
          room.changed?.({ action: 'mute', userId: m.userId, mutedUntil });
          core().muted(m.userId, roomId, mutedUntil);
          tellModerators(roomId, storeId);
          return {};
        }
        case 'unmute':
          // Someone muted who left since can still be unmuted.
          if (await roleOf(storeId, m.userId)) await target(room, role, m.userId);
          else await person(m.userId);
          await db.delete(roomMutes).where(and(eq(roomMutes.roomId, storeId), eq(roomMutes.userId, m.userId)));
          await record(storeId, actor.userId, 'unmute', m.userId);
          room.changed?.({ action: 'mute', userId: m.userId, mutedUntil: null });
          core().muted(m.userId, roomId, null);
          tellModerators(roomId, storeId);
          return {};
        case 'kick':
        case 'ban': {
          // Someone who trolled and left can still be kept out: a ban needs no membership, a kick does.
          const was = await target(room, role, m.userId, m.action === 'kick');
          await db.transaction(async (tx) => {
            await tx.delete(roomMembers).where(memberWhere(m.userId));
            if (m.action === 'ban')
              await tx
                .insert(roomBans)
                .values({ roomId: storeId, userId: m.userId, bannedBy: actor.userId, reason: m.reason })
                .onConflictDoNothing();
          });
          await record(storeId, actor.userId, m.action, m.userId, m.reason);
          if (m.action === 'ban') room.changed?.({ action: 'ban', userId: m.userId });
          // A moderator removed loses the role: the people list says so.
          if (was === 'moderator') core().peopleChanged(roomId);
          core().removed(m.userId, {
            roomId,
            reason: m.action === 'ban' ? 'banned' : 'kicked',
            by: actor.username,
            note: room.words.note(m.action, actor.username, m.reason ?? ''),
          });
          if (m.action === 'ban') tellModerators(roomId, storeId);
          return {};
        }
        case 'unban':
          await person(m.userId);
          await db.delete(roomBans).where(and(eq(roomBans.roomId, storeId), eq(roomBans.userId, m.userId)));
          await record(storeId, actor.userId, 'unban', m.userId);
          room.changed?.({ action: 'unban', userId: m.userId });
          tellModerators(roomId, storeId);
          return {};
        case 'appoint':
        case 'dismiss': {
          const current = await roleOf(storeId, m.userId);
          if (current === 'owner' || (room.membersOnly && !current))
            throw new DomainError('not_found', 'That person is not someone you can appoint or dismiss.', 'not_member');
          const who = await person(m.userId);
          const moderator = m.action === 'appoint';
          if (moderator)
            await db
              .insert(roomMembers)
              .values({ roomId: storeId, userId: m.userId, role: 'moderator' })
              .onConflictDoUpdate({ target: [roomMembers.roomId, roomMembers.userId], set: { role: 'moderator' } });
          // A group's member stays a member; a channel has no members but its owner and moderators.
          else if (room.membersOnly) await db.update(roomMembers).set({ role: 'member' }).where(memberWhere(m.userId));
          else await db.delete(roomMembers).where(memberWhere(m.userId));
          await record(storeId, actor.userId, m.action, m.userId);
          room.changed?.({ action: 'role', userId: m.userId, moderator, ...who });
          core().accessChanged({ roomId, userId: m.userId });
          core().peopleChanged(roomId);
          return {};
        }
        case 'slowMode':
          await db.update(storedRooms).set({ slowModeS: m.seconds }).where(eq(storedRooms.id, storeId));
          await record(storeId, actor.userId, 'slowMode', null, `${m.seconds} s`);
          await settings(roomId, room);
          return {};
        case 'readOnly':
          await db.update(storedRooms).set({ readOnly: m.on }).where(eq(storedRooms.id, storeId));
          await record(storeId, actor.userId, 'readOnly', null, m.on ? 'on' : 'off');
          await settings(roomId, room);
          return {};
        case 'transfer': {
          if (m.userId === actor.userId || !(await roleOf(storeId, m.userId)))
            throw new DomainError('not_found', room.words.notIn, 'not_member');
          await db.transaction(async (tx) => {
            await tx.update(roomMembers).set({ role: 'moderator' }).where(memberWhere(actor.userId));
            await tx.update(roomMembers).set({ role: 'owner' }).where(memberWhere(m.userId));
            await tx.update(storedRooms).set({ ownerId: m.userId }).where(eq(storedRooms.id, storeId));
          });
          await record(storeId, actor.userId, 'transfer', m.userId);
          core().peopleChanged(roomId);
          await settings(roomId, room);
          return {};
        }
        case 'close': {
          await db
            .update(storedRooms)
            .set({ closedAt: sql`now()` })
            .where(eq(storedRooms.id, storeId));
          await record(storeId, actor.userId, 'close', null);
          core().accessChanged({ roomId });
          core().broadcast(roomId, wire.removed, {
            roomId,
            reason: 'closed',
            by: actor.username,
            note: room.words.closed(actor.username),
          });
          return {};
        }
        case 'rotateInvite': {
          const invite = newInviteCode();
          await db.update(storedRooms).set({ inviteCode: invite }).where(eq(storedRooms.id, storeId));
          await record(storeId, actor.userId, 'rotateInvite', null);
          return { invite };
        }
      }
    },

    /** The room's moderation record, newest first, for its owner and moderators only. */
    async log(roomId: string, userId: string): Promise<ModerationEntry[]> {
      const { room } = await moderating(roomId, userId);
      return entries(room.storeId);
    },

    /**
     * A stored room's record by its store id, newest first, within `window` (epoch ms) when given:
     * one stream's part of its channel's record. The caller has decided who may read it.
     */
    entriesOf: entries,

    /** Someone's role in a stored room (a stream's channel), or null: for callers that authorise by the store id. */
    roleIn: roleOf,

    /** Who is muted (still) and banned in a stored room, for whom moderates it (the caller has checked that). */
    async restrictionsOf(storeId: string) {
      const [muted, banned, [room]] = await Promise.all([
        db
          .select({ userId: roomMutes.userId, username: users.username, mutedUntil: roomMutes.mutedUntil })
          .from(roomMutes)
          .innerJoin(users, eq(users.id, roomMutes.userId))
          .where(and(eq(roomMutes.roomId, storeId), gt(roomMutes.mutedUntil, sql`now()`)))
          .orderBy(asc(roomMutes.mutedUntil)),
        db
          .select({ userId: roomBans.userId, username: users.username, reason: roomBans.reason, at: roomBans.createdAt })
          .from(roomBans)
          .innerJoin(users, eq(users.id, roomBans.userId))
          .where(eq(roomBans.roomId, storeId))
          .orderBy(desc(roomBans.createdAt)),
        db.select({ slowModeS: storedRooms.slowModeS }).from(storedRooms).where(eq(storedRooms.id, storeId)),
      ]);
      return {
        slowModeS: room?.slowModeS ?? 0,
        muted: muted.map((m) => ({ ...m, mutedUntil: m.mutedUntil.getTime() })),
        banned: banned.map((b) => ({ ...b, at: b.at.getTime() })),
      };
    },
  };
}

export type RoomModeration = ReturnType<typeof roomModeration>;
