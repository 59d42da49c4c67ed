import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { GROUP_REFUSALS, type Moderation, type ModerationEntry } from '@parley/contract/groups';
import { roomEvents as wire } from '@parley/contract/rooms';
import type { TokenUser } from '@parley/contract/auth';
import type { Db } from '../db/client.ts';
import { roomBans, roomMembers, roomModerationLog, roomMutes, storedRooms, users } from '../db/schema.ts';
import { DomainError } from '../platform/errors.ts';
import type { RoomCore } from '../deps.ts';
import { newInviteCode } from './service.ts';
import { outranks, type Role } from '../rooms/roles.ts';

/** What only the owner may do; the rest is for the owner and moderators. */
const OWNER_ONLY = new Set<Moderation['action']>(['appoint', 'dismiss', 'transfer', 'close']);

const forbidden = (message: string, code = 'forbidden') => new DomainError('forbidden', message, code);

/**
 * What a group room's owner and moderators do to keep it pleasant. Every action is checked
 * against the actor's role read from the database and recorded (who, what, to whom, when).
 */
export function groupModeration(db: Db, rooms: () => RoomCore) {
  async function roleOf(roomId: string, userId: string): Promise<Role | null> {
    const [m] = await db
      .select({ role: roomMembers.role })
      .from(roomMembers)
      .where(and(eq(roomMembers.roomId, roomId), eq(roomMembers.userId, userId)));
    return m?.role ?? null;
  }

  async function userExists(userId: string) {
    return (await db.select({ id: users.id }).from(users).where(eq(users.id, userId))).length > 0;
  }

  async function record(roomId: string, actorId: string, action: string, targetUserId: string | null, detail = '') {
    await db.insert(roomModerationLog).values({ roomId, actorId, action, targetUserId, detail });
  }

  /** The target must be a member the actor outranks (a moderator cannot act on another moderator). */
  async function target(roomId: string, actorRole: Role, userId: string): Promise<Role> {
    const role = await roleOf(roomId, userId);
    if (!role) throw new DomainError('not_found', 'That person is not in this room.', 'not_member');
    if (!outranks(actorRole, role)) throw forbidden('You cannot do this to the room owner or a fellow moderator.', 'outranked');
    return role;
  }

  const settings = async (roomId: string) => {
    const [r] = await db
      .select({ slowModeS: storedRooms.slowModeS, readOnly: storedRooms.readOnly, ownerId: storedRooms.ownerId })
      .from(storedRooms)
      .where(eq(storedRooms.id, roomId));
    // Slow mode, read-only and the owner decide who may post how often.
    rooms().accessChanged({ roomId });
    if (r) rooms().broadcast(roomId, wire.settings, { roomId, ...r });
  };

  return {
    async act(roomId: string, actor: TokenUser, m: Moderation): Promise<{ invite?: string }> {
      const [room] = await db
        .select({ kind: storedRooms.kind, closedAt: storedRooms.closedAt })
        .from(storedRooms)
        .where(eq(storedRooms.id, roomId));
      if (!room || room.kind !== 'group') throw new DomainError('not_found', GROUP_REFUSALS.unknown, 'unknown_room');
      if (room.closedAt) throw forbidden(GROUP_REFUSALS.closed, 'closed');
      const role = await roleOf(roomId, actor.userId);
      if (role === null || role === 'member') throw forbidden(GROUP_REFUSALS.notModerator, 'not_moderator');
      if (OWNER_ONLY.has(m.action) && role !== 'owner') throw forbidden(GROUP_REFUSALS.notOwner, 'not_owner');
      const memberWhere = (userId: string) => and(eq(roomMembers.roomId, roomId), eq(roomMembers.userId, userId));

      switch (m.action) {
        case 'removeMessage':
          await rooms().remove(actor, roomId, m.messageId);
          return {};
        case 'mute': {
          await target(roomId, role, m.userId);
          const until = sql`now() + make_interval(mins => ${m.minutes})`;
          const [row] = await db
            .insert(roomMutes)
            .values({ roomId, userId: m.userId, mutedUntil: until })
            .onConflictDoUpdate({ target: [roomMutes.roomId, roomMutes.userId], set: { mutedUntil: until } })
            .returning({ mutedUntil: roomMutes.mutedUntil });
          await record(roomId, actor.userId, 'mute', m.userId, `${m.minutes} min`);
          rooms().muted(m.userId, roomId, row!.mutedUntil.getTime());
          return {};
        }
        case 'unmute':
          // Someone muted who left since can still be unmuted.
          if (await roleOf(roomId, m.userId)) await target(roomId, role, m.userId);
          await db.delete(roomMutes).where(and(eq(roomMutes.roomId, roomId), eq(roomMutes.userId, m.userId)));
          await record(roomId, actor.userId, 'unmute', m.userId);
          rooms().muted(m.userId, roomId, null);
          return {};
        case 'kick':
        case 'ban': {
          // Someone who trolled and left can still be kept out: a ban needs no membership, a kick does.
          if (m.action === 'kick' || (await roleOf(roomId, m.userId))) await target(roomId, role, m.userId);
          else if (!(await userExists(m.userId))) throw new DomainError('not_found', 'There is no such person.', 'unknown_user');
          await db.transaction(async (tx) => {
            await tx.delete(roomMembers).where(memberWhere(m.userId));
            if (m.action === 'ban')
              await tx
                .insert(roomBans)
                .values({ roomId, userId: m.userId, bannedBy: actor.userId, reason: m.reason })
                .onConflictDoNothing();
          });
          await record(roomId, actor.userId, m.action, m.userId, m.reason);
          const what = m.action === 'ban' ? 'banned you from this room' : 'removed you from this room';
          rooms().removed(m.userId, {
            roomId,
            reason: m.action === 'ban' ? 'banned' : 'kicked',
            by: actor.username,
            note: `${actor.username} ${what}${m.reason ? `: ${m.reason}` : '.'}`,
          });
          return {};
        }
        case 'unban':
          await db.delete(roomBans).where(and(eq(roomBans.roomId, roomId), eq(roomBans.userId, m.userId)));
          await record(roomId, actor.userId, 'unban', m.userId);
          return {};
        case 'appoint':
        case 'dismiss': {
          const current = await roleOf(roomId, m.userId);
          if (!current || current === 'owner')
            throw new DomainError('not_found', 'That person is not a member you can appoint or dismiss.', 'not_member');
          await db
            .update(roomMembers)
            .set({ role: m.action === 'appoint' ? 'moderator' : 'member' })
            .where(memberWhere(m.userId));
          await record(roomId, actor.userId, m.action, m.userId);
          rooms().accessChanged({ roomId, userId: m.userId });
          rooms().peopleChanged(roomId);
          return {};
        }
        case 'slowMode':
          await db.update(storedRooms).set({ slowModeS: m.seconds }).where(eq(storedRooms.id, roomId));
          await record(roomId, actor.userId, 'slowMode', null, `${m.seconds} s`);
          await settings(roomId);
          return {};
        case 'readOnly':
          await db.update(storedRooms).set({ readOnly: m.on }).where(eq(storedRooms.id, roomId));
          await record(roomId, actor.userId, 'readOnly', null, m.on ? 'on' : 'off');
          await settings(roomId);
          return {};
        case 'transfer': {
          if (m.userId === actor.userId || !(await roleOf(roomId, m.userId)))
            throw new DomainError('not_found', 'That person is not in this room.', 'not_member');
          await db.transaction(async (tx) => {
            await tx.update(roomMembers).set({ role: 'moderator' }).where(memberWhere(actor.userId));
            await tx.update(roomMembers).set({ role: 'owner' }).where(memberWhere(m.userId));
            await tx.update(storedRooms).set({ ownerId: m.userId }).where(eq(storedRooms.id, roomId));
          });
          await record(roomId, actor.userId, 'transfer', m.userId);
          rooms().peopleChanged(roomId);
          await settings(roomId);
          return {};
        }
        case 'close': {
          await db
            .update(storedRooms)
            .set({ closedAt: sql`now()` })
            .where(eq(storedRooms.id, roomId));
          await record(roomId, actor.userId, 'close', null);
          rooms().accessChanged({ roomId });
          rooms().broadcast(roomId, wire.removed, {
            roomId,
            reason: 'closed',
            by: actor.username,
            note: `${actor.username} closed this room.`,
          });
          return {};
        }
        case 'rotateInvite': {
          const invite = newInviteCode();
          await db.update(storedRooms).set({ inviteCode: invite }).where(eq(storedRooms.id, roomId));
          await record(roomId, actor.userId, 'rotateInvite', null);
          return { invite };
        }
      }
    },

    /** The room's moderation record, newest first, for its owner and moderators only. */
    async log(roomId: string, userId: string): Promise<ModerationEntry[]> {
      const role = await roleOf(roomId, userId);
      if (role === null || role === 'member') throw forbidden(GROUP_REFUSALS.notModerator, 'not_moderator');
      const actor = alias(users, 'actor');
      const targetUser = alias(users, 'target');
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
        .where(eq(roomModerationLog.roomId, roomId))
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
    },
  };
}
