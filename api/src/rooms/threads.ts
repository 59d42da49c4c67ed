import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

type Row = Record<string, unknown>;
const rowsOf = (r: unknown) => (r as { rows: Row[] }).rows;

/** The most threads whose unread counts a room's page is given at once (the most recent ones). */
const UNREAD_THREADS_MAX = 200;

/**
 * Members' places in the threads of group rooms (room_thread_members): who follows a thread (and
 * is told of its replies) and how far each has read it. The replies themselves are room messages
 * (messageStore), in the room's id sequence, with the root's id as their `thread_id`.
 */
export function threadStore(db: Db) {
  return {
    /** A message of the room that can have a thread: null when there is none, `reply` when it is itself a thread's reply. */
    async root(roomId: string, id: number): Promise<{ senderId: string | null; deleted: boolean; reply: boolean } | null> {
      const [r] = rowsOf(
        await db.execute(
          sql`select sender_id, deleted_at is not null as deleted, thread_id is not null as reply from room_messages where room_id = ${roomId} and id = ${id}`,
        ),
      );
      return r ? { senderId: (r.sender_id as string | null) ?? null, deleted: Boolean(r.deleted), reply: Boolean(r.reply) } : null;
    },

    /** Someone posted `messageId` in the thread: they follow it (again) and have read it that far; the root's author follows it from its first reply. */
    async posted(roomId: string, rootId: number, userId: string, messageId: number, rootAuthorId: string | null) {
      await db.execute(sql`
        insert into room_thread_members (room_id, root_id, user_id, following, last_read_id)
        values (${roomId}, ${rootId}, ${userId}, true, ${messageId})
        on conflict (room_id, root_id, user_id) do update
          set following = true, last_read_id = greatest(room_thread_members.last_read_id, excluded.last_read_id)`);
      if (rootAuthorId && rootAuthorId !== userId)
        await db.execute(sql`
          insert into room_thread_members (room_id, root_id, user_id, following, last_read_id)
          select ${roomId}, ${rootId}, ${rootAuthorId}, true, 0
          where exists (select 1 from room_members where room_id = ${roomId} and user_id = ${rootAuthorId})
          on conflict do nothing`);
    },

    /** Followers of a thread who are still members of its room. */
    async followers(roomId: string, rootId: number): Promise<string[]> {
      const rows = rowsOf(
        await db.execute(sql`
          select t.user_id from room_thread_members t
          join room_members m on m.room_id = t.room_id and m.user_id = t.user_id
          where t.room_id = ${roomId} and t.root_id = ${rootId} and t.following`),
      );
      return rows.map((r) => r.user_id as string);
    },

    async place(roomId: string, rootId: number, userId: string): Promise<{ following: boolean; lastReadId: number }> {
      const [r] = rowsOf(
        await db.execute(
          sql`select following, last_read_id::float8 as last_read_id from room_thread_members where room_id = ${roomId} and root_id = ${rootId} and user_id = ${userId}`,
        ),
      );
      return r ? { following: Boolean(r.following), lastReadId: Number(r.last_read_id) } : { following: false, lastReadId: 0 };
    },

    async follow(roomId: string, rootId: number, userId: string, on: boolean) {
      await db.execute(sql`
        insert into room_thread_members (room_id, root_id, user_id, following) values (${roomId}, ${rootId}, ${userId}, ${on})
        on conflict (room_id, root_id, user_id) do update set following = excluded.following`);
    },

    /** Moves a reader's position in a thread forward only, never past its last reply. */
    async markRead(roomId: string, rootId: number, userId: string, lastReadId: number) {
      await db.execute(sql`
        insert into room_thread_members (room_id, root_id, user_id, following, last_read_id)
        select ${roomId}, ${rootId}, ${userId}, false, least(${lastReadId}::bigint, coalesce(max(id), 0))
          from room_messages where room_id = ${roomId} and thread_id = ${rootId}
        on conflict (room_id, root_id, user_id) do update
          set last_read_id = greatest(room_thread_members.last_read_id, excluded.last_read_id)`);
    },

    /** The followed threads of the room with replies (not the reader's own) past where the reader read them: root id → count. */
    async unread(roomId: string, userId: string): Promise<Record<string, number>> {
      const rows = rowsOf(
        await db.execute(sql`
          select t.root_id::float8 as root_id, count(*)::int as n
          from (select root_id, last_read_id from room_thread_members
                where room_id = ${roomId} and user_id = ${userId} and following order by root_id desc limit ${UNREAD_THREADS_MAX}) t
          join room_messages x on x.room_id = ${roomId} and x.thread_id = t.root_id and x.id > t.last_read_id
          where x.deleted_at is null and x.sender_id is distinct from ${userId}
          group by t.root_id`),
      );
      return Object.fromEntries(rows.map((r) => [String(Number(r.root_id)), Number(r.n)]));
    },
  };
}
export type ThreadStore = ReturnType<typeof threadStore>;
