import { sql, type SQL } from 'drizzle-orm';
import type { RoomMemberView } from '@parley/contract/rooms';
import type { Db } from '../db/client.ts';

type Row = Record<string, unknown>;
const rowsOf = (r: unknown) => (r as { rows: Row[] }).rows;

export type Role = RoomMemberView['role'];

/**
 * What every check on a stored room needs, read in one query: the room, the caller's membership, a
 * ban. A broadcaster's channel (moderation kept across streams) is no conversation: never read here.
 */
export type Access = {
  room: {
    kind: 'group' | 'direct';
    name: string;
    closed: boolean;
    readOnly: boolean;
    slowModeS: number;
    ownerId: string | null;
    lastMessageId: number;
    visibility: 'public' | 'invite';
    capacity: number;
    /** A direct room's pair are friends (direct rooms stay open to friends only). */
    friends: boolean;
    /** A direct room's two members, as its key names them. */
    directMemberIds: string[] | null;
    /** A direct room's pair: one blocked the other (the conversation is closed both ways). */
    blocked: boolean;
  };
  member: { role: Role; mutedUntil: number | null; lastReadId: number } | null;
  banned: boolean;
};

/** What access() reads of room `r`, membership `m` and the user `user` (mute, ban, a direct pair's friendship and blocks). */
const accessColumns = (user: SQL) => sql`r.kind, r.name, r.direct_key,
  r.kind = 'direct' and exists (select 1 from friendships f
    where f.user_low = split_part(r.direct_key, ':', 1)::uuid and f.user_high = split_part(r.direct_key, ':', 2)::uuid) as friends,
  r.kind = 'direct' and exists (select 1 from user_blocks ub
    where (ub.blocker_id = split_part(r.direct_key, ':', 1)::uuid and ub.blocked_id = split_part(r.direct_key, ':', 2)::uuid)
       or (ub.blocker_id = split_part(r.direct_key, ':', 2)::uuid and ub.blocked_id = split_part(r.direct_key, ':', 1)::uuid)) as blocked,
  r.closed_at is not null as closed, r.read_only, r.slow_mode_s, r.owner_id, r.visibility, r.capacity,
  r.last_message_id::float8 as last_message_id,
  m.role, m.last_read_id::float8 as last_read_id,
  (select floor(extract(epoch from mu.muted_until) * 1000)::float8 from room_mutes mu
    where mu.room_id = r.id and mu.user_id = ${user} and mu.muted_until > now()) as muted_until,
  exists (select 1 from room_bans b where b.room_id = r.id and b.user_id = ${user}) as banned`;

function toAccess(r: Row): Access {
  return {
    room: {
      kind: r.kind as 'group' | 'direct',
      name: r.name as string,
      closed: Boolean(r.closed),
      readOnly: Boolean(r.read_only),
      slowModeS: Number(r.slow_mode_s),
      ownerId: (r.owner_id as string | null) ?? null,
      lastMessageId: Number(r.last_message_id),
      visibility: r.visibility as 'public' | 'invite',
      capacity: Number(r.capacity),
      friends: Boolean(r.friends),
      blocked: Boolean(r.blocked),
      directMemberIds: typeof r.direct_key === 'string' ? r.direct_key.split(':') : null,
    },
    member:
      r.role === null || r.role === undefined
        ? null
        : {
            role: r.role as Role,
            mutedUntil: r.muted_until === null ? null : Number(r.muted_until),
            lastReadId: Number(r.last_read_id),
          },
    banned: Boolean(r.banned),
  };
}

export function membership(db: Db) {
  return {
    async access(roomId: string, userId: string): Promise<Access | null> {
      const rows = rowsOf(
        await db.execute(sql`
          select ${accessColumns(sql`${userId}`)}
          from stored_rooms r left join room_members m on m.room_id = r.id and m.user_id = ${userId}
          where r.id = ${roomId} and r.kind <> 'channel'`),
      );
      return rows[0] ? toAccess(rows[0]) : null;
    },

    /**
     * access() of many (room, user) pairs in one query (null where the room does not exist), in
     * their order. Each pair's room and membership are read by key (lateral with limit), whatever
     * the planner guesses of the JSON input's size.
     */
    async accessMany(pairs: ReadonlyArray<{ roomId: string; userId: string }>): Promise<Array<Access | null>> {
      if (pairs.length === 0) return [];
      const input = JSON.stringify(pairs.map((p, ord) => ({ ord, room_id: p.roomId, user_id: p.userId })));
      const rows = rowsOf(
        await db.execute(sql`
          select i.ord, ${accessColumns(sql`i.user_id`)}
          from jsonb_to_recordset(${input}::jsonb) as i(ord int, room_id uuid, user_id uuid)
            cross join lateral (select * from stored_rooms where id = i.room_id and kind <> 'channel' limit 1) r
            left join lateral (select role, last_read_id from room_members where room_id = i.room_id and user_id = i.user_id limit 1) m on true`),
      );
      const out: Array<Access | null> = pairs.map(() => null);
      for (const r of rows) out[Number(r.ord)] = toAccess(r);
      return out;
    },

    /**
     * Moves a member's read position forward only, never past the room's last message. Threads'
     * replies right after it are passed over too (they are read in their threads, not the room).
     */
    async markRead(roomId: string, userId: string, lastReadId: number): Promise<number | null> {
      const rows = rowsOf(
        await db.execute(sql`
          update room_members m set last_read_id = greatest(m.last_read_id, least(
            coalesce((select min(x.id) - 1 from room_messages x where x.room_id = ${roomId} and x.id > ${lastReadId}::bigint and x.thread_id is null), r.last_message_id),
            r.last_message_id))
          from stored_rooms r where r.id = m.room_id and m.room_id = ${roomId} and m.user_id = ${userId}
          returning m.last_read_id::float8 as last_read_id`),
      );
      return rows[0] ? Number(rows[0].last_read_id) : null;
    },

    /** Every member's read position (receipts), for rooms small enough to show them (direct). */
    async readPositions(roomId: string): Promise<Record<string, number>> {
      const rows = rowsOf(await db.execute(sql`select user_id, last_read_id::float8 as r from room_members where room_id = ${roomId}`));
      return Object.fromEntries(rows.map((r) => [r.user_id as string, Number(r.r)]));
    },

    /** The members among `names` (lower-cased usernames): who a message's `@mentions` reach. */
    async membersNamed(roomId: string, names: string[]): Promise<string[]> {
      if (names.length === 0) return [];
      const rows = rowsOf(
        await db.execute(sql`
          select u.id from room_members m join users u on u.id = m.user_id
          where m.room_id = ${roomId} and lower(u.username) in (${sql.join(
            names.map((n) => sql`${n}`),
            sql`, `,
          )})`),
      );
      return rows.map((r) => r.id as string);
    },

    /** Members as a room shows them, for the given users (those here now), owner and moderators first. */
    async views(roomId: string, userIds: string[]): Promise<Omit<RoomMemberView, 'here'>[]> {
      if (userIds.length === 0) return [];
      const rows = rowsOf(
        await db.execute(sql`
          select u.id, u.username, u.avatar, m.role from room_members m join users u on u.id = m.user_id
          where m.room_id = ${roomId} and m.user_id in (${sql.join(
            userIds.map((id) => sql`${id}`),
            sql`, `,
          )})
          order by case m.role when 'owner' then 0 when 'moderator' then 1 else 2 end, lower(u.username)`),
      );
      return rows.map((r) => ({
        userId: r.id as string,
        username: r.username as string,
        avatar: r.avatar as string,
        role: r.role as Role,
      }));
    },

    async memberIds(roomId: string): Promise<string[]> {
      const rows = rowsOf(await db.execute(sql`select user_id from room_members where room_id = ${roomId}`));
      return rows.map((r) => r.user_id as string);
    },
  };
}

export type Membership = ReturnType<typeof membership>;
