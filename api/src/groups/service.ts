import { and, eq, sql } from 'drizzle-orm';
import { perksOf } from '@parley/contract/billing';
import { GROUP_REFUSALS, type CreateGroup, type GroupDetail, type GroupList, type GroupSummary } from '@parley/contract/groups';
import type { TokenUser } from '@parley/contract/auth';
import type { Db } from '../db/client.ts';
import { roomBans, roomMembers, storedRooms, users } from '../db/schema.ts';
import { DomainError } from '../platform/errors.ts';
import type { RoomCore } from '../deps.ts';
import { newInviteCode } from '../rooms/moderation.ts';

type Row = Record<string, unknown>;
const rowsOf = (r: unknown) => (r as { rows: Row[] }).rows;

/** Rooms a list shows at most; search narrows it. */
const LIST_MAX = 200;

const SUMMARY = (userId: string) => sql`
  select r.id, r.name, r.category, r.language, r.description, r.visibility, r.official, r.capacity, r.owner_id, r.invite_code,
    r.slow_mode_s, r.read_only, r.closed_at is not null as closed,
    coalesce(o.username, 'Parley') as owner,
    (select count(*) from room_members c where c.room_id = r.id)::int as members,
    (extract(epoch from r.last_message_at) * 1000)::float8 as last_activity_at, r.last_message_id::float8 as last_message_id,
    m.role, greatest(r.last_message_id - coalesce(m.last_read_id, r.last_message_id), 0)::float8 as unread
  from stored_rooms r
  left join users o on o.id = r.owner_id
  left join room_members m on m.room_id = r.id and m.user_id = ${userId}`;

/** Group rooms: finding, creating, joining and leaving them. Moderation is in moderation.ts. */
export function groupService(db: Db, rooms: () => RoomCore) {
  const summary = (r: Row): GroupSummary => ({
    roomId: r.id as string,
    name: r.name as string,
    category: r.category as GroupSummary['category'],
    description: r.description as string,
    owner: r.owner as string,
    visibility: r.visibility as GroupSummary['visibility'],
    official: Boolean(r.official),
    capacity: Number(r.capacity),
    language: (r.language as string | null) ?? null,
    members: Number(r.members),
    peopleInRoom: rooms().presence.count(r.id as string),
    lastActivityAt: r.last_activity_at === null ? null : Number(r.last_activity_at),
    lastMessageId: Number(r.last_message_id),
    member: r.role !== null,
    unread: Number(r.unread),
  });

  async function detailRow(roomId: string, userId: string): Promise<Row | undefined> {
    return rowsOf(await db.execute(sql`${SUMMARY(userId)} where r.id = ${roomId} and r.kind = 'group'`))[0];
  }

  async function isBanned(roomId: string, userId: string) {
    const rows = await db
      .select({ u: roomBans.userId })
      .from(roomBans)
      .where(and(eq(roomBans.roomId, roomId), eq(roomBans.userId, userId)));
    return rows.length > 0;
  }

  return {
    async list(
      userId: string,
      q: { category?: string | undefined; q?: string | undefined; language?: string | undefined },
    ): Promise<GroupList> {
      const where = [sql`r.kind = 'group'`, sql`r.closed_at is null`, sql`(r.visibility = 'public' or m.role is not null)`];
      if (q.category) where.push(sql`r.category = ${q.category}`);
      let languages: string[] = [];
      if (q.language === undefined) {
        // By default the person's languages, and rooms that name none; rooms they belong to always show.
        const [me] = await db.select({ languages: users.languages }).from(users).where(eq(users.id, userId)).limit(1);
        languages = me?.languages ?? [];
        if (languages.length > 0)
          where.push(
            sql`(r.language is null or m.role is not null or r.language in (${sql.join(
              languages.map((l) => sql`${l}`),
              sql`, `,
            )}))`,
          );
      } else if (q.language !== 'any') {
        languages = [q.language];
        where.push(sql`r.language = ${q.language}`);
      }
      if (q.q) {
        const like = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        where.push(sql`(r.name ilike ${like} or r.description ilike ${like})`);
      }
      const rows = rowsOf(
        await db.execute(
          sql`${SUMMARY(userId)} where ${sql.join(where, sql` and `)} order by m.role is null, r.official desc, r.last_message_at desc nulls last, r.created_at limit ${LIST_MAX}`,
        ),
      );
      return { rooms: rows.map(summary), languages };
    },

    /** A room's page: unknown, closed and banned-from rooms answer why; invite-only rooms need membership or the invite. */
    async detail(roomId: string, userId: string, invite?: string): Promise<GroupDetail> {
      const r = await detailRow(roomId, userId);
      if (!r) throw new DomainError('not_found', GROUP_REFUSALS.unknown, 'unknown_room');
      if (r.closed) throw new DomainError('forbidden', GROUP_REFUSALS.closed, 'closed');
      if (await isBanned(roomId, userId)) throw new DomainError('forbidden', GROUP_REFUSALS.banned, 'banned');
      const role = (r.role as GroupDetail['role']) ?? null;
      if (r.visibility === 'invite' && role === null && invite !== r.invite_code)
        throw new DomainError('forbidden', GROUP_REFUSALS.inviteOnly, 'invite_only');
      return {
        ...summary(r),
        roomOwner: r.owner as string,
        role,
        slowModeS: Number(r.slow_mode_s),
        readOnly: Boolean(r.read_only),
        closed: false,
        invite: role === 'owner' || role === 'moderator' ? ((r.invite_code as string | null) ?? null) : null,
      };
    },

    async create(user: TokenUser, body: CreateGroup): Promise<GroupDetail> {
      const [owned] = rowsOf(
        await db.execute(
          sql`select count(*)::int as n from stored_rooms where owner_id = ${user.userId} and kind = 'group' and closed_at is null`,
        ),
      );
      // Premium perks: more and larger rooms (the tier comes from the verified access token).
      const perks = perksOf(user.premiumUser);
      if (Number(owned?.n ?? 0) >= perks.ownedGroupRooms)
        throw new DomainError('conflict', GROUP_REFUSALS.tooManyRooms(perks.ownedGroupRooms), 'too_many_rooms');
      if (body.capacity > perks.groupRoomCapacity)
        throw new DomainError('forbidden', GROUP_REFUSALS.tooLarge(perks.groupRoomCapacity), 'capacity_over_perk');
      const roomId = await db.transaction(async (tx) => {
        const [room] = await tx
          .insert(storedRooms)
          .values({
            kind: 'group',
            name: body.name,
            category: body.category,
            description: body.description,
            ownerId: user.userId,
            visibility: body.visibility,
            inviteCode: body.visibility === 'invite' ? newInviteCode() : null,
            capacity: body.capacity,
            language: body.language,
          })
          .returning({ id: storedRooms.id });
        await tx.insert(roomMembers).values({ roomId: room!.id, userId: user.userId, role: 'owner' });
        return room!.id;
      });
      return this.detail(roomId, user.userId);
    },

    /** A newcomer starts with everything before them read: they open at the latest and scroll back for history. */
    async join(roomId: string, user: TokenUser, invite?: string): Promise<GroupDetail> {
      const r = await detailRow(roomId, user.userId);
      if (!r) throw new DomainError('not_found', GROUP_REFUSALS.unknown, 'unknown_room');
      if (r.closed) throw new DomainError('forbidden', GROUP_REFUSALS.closed, 'closed');
      if (await isBanned(roomId, user.userId)) throw new DomainError('forbidden', GROUP_REFUSALS.banned, 'banned');
      if (r.role === null) {
        if (r.visibility === 'invite' && invite !== r.invite_code)
          throw new DomainError('forbidden', GROUP_REFUSALS.inviteOnly, 'invite_only');
        // The capacity check and the insert are one statement, so two last arrivals cannot both pass.
        const inserted = rowsOf(
          await db.execute(sql`
            insert into room_members (room_id, user_id, role, last_read_id)
            select r.id, ${user.userId}, 'member', r.last_message_id from stored_rooms r
            where r.id = ${roomId} and (select count(*) from room_members c where c.room_id = r.id) < r.capacity
            on conflict do nothing returning user_id`),
        );
        if (inserted.length === 0) {
          const again = await detailRow(roomId, user.userId);
          if (again?.role === null || !again) throw new DomainError('conflict', GROUP_REFUSALS.full, 'full');
        }
      }
      return this.detail(roomId, user.userId);
    },

    async leave(roomId: string, user: TokenUser) {
      const r = await detailRow(roomId, user.userId);
      if (!r || r.role === null) throw new DomainError('not_found', GROUP_REFUSALS.notMember, 'not_member');
      if (r.role === 'owner')
        throw new DomainError(
          'conflict',
          'Hand the room to someone else (transfer ownership) or close it before leaving.',
          'owner_cannot_leave',
        );
      await db.delete(roomMembers).where(and(eq(roomMembers.roomId, roomId), eq(roomMembers.userId, user.userId)));
      rooms().removed(user.userId, { roomId, reason: 'left', by: null, note: 'You left the room.' });
    },
  };
}

export type GroupService = ReturnType<typeof groupService>;
