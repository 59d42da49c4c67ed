import { sql, type SQL } from 'drizzle-orm';
import { nameStyleOf } from '@parley/contract/billing';
import type { RoomMessage } from '@parley/contract/rooms';
import type { Db } from '../db/client.ts';

/**
 * Stored rooms' messages in PostgreSQL. A message's id comes from its room's `last_message_id`,
 * raised in the same statement that inserts it: the row lock on the room orders its messages, so
 * ids increase without gaps and commit in id order. Pages read the (room, id) primary key.
 */

type Row = Record<string, unknown>;
const rowsOf = (r: unknown) => (r as { rows: Row[] }).rows;

/** What a reply shows of the message it answers. */
const QUOTE_CHARS = 140;

const COLUMNS = sql`m.room_id, m.id::float8 as id, m.sender_id, coalesce(u.username, 'Someone') as sender_name,
    u.premium_user as sender_tier, u.name_colour as sender_colour,
    case when m.deleted_at is null then m.text else '' end as text,
    m.client_id, m.mentions::text[] as mentions, case when m.deleted_at is null then m.emoji end as emoji, m.deleted_at is not null as deleted,
    (extract(epoch from m.created_at) * 1000)::float8 as sent_at,
    (extract(epoch from m.edited_at) * 1000)::float8 as edited_at,
    r.id::float8 as reply_id, coalesce(ru.username, 'Someone') as reply_sender,
    case when r.deleted_at is null then left(r.text, ${QUOTE_CHARS}) else '' end as reply_text`;
const JOINS = sql`left join users u on u.id = m.sender_id
  left join room_messages r on r.room_id = m.room_id and r.id = m.reply_to
  left join users ru on ru.id = r.sender_id`;
/** A message's reactions, each emoji with who gave it in order, emoji in the order first given: read with the page, not after it. */
const REACTIONS = sql`(select coalesce(json_agg(json_build_object('emoji', x.emoji, 'userIds', x.user_ids) order by x.first_at), '[]'::json)
    from (select rr.emoji, array_agg(rr.user_id::text order by rr.created_at) as user_ids, min(rr.created_at) as first_at
      from room_reactions rr where rr.room_id = m.room_id and rr.message_id = m.id group by rr.emoji) x) as reactions`;
const SELECT = sql`select ${COLUMNS}, ${REACTIONS} from room_messages m ${JOINS}`;

function toMessage(row: Row): RoomMessage {
  return {
    roomId: row.room_id as string,
    id: Number(row.id),
    senderId: (row.sender_id as string | null) ?? '',
    senderName: row.sender_name as string,
    senderStyle: nameStyleOf((row.sender_tier as string | null) ?? '', row.sender_colour as string | null),
    text: row.text as string,
    sentAt: Number(row.sent_at),
    editedAt: row.edited_at === null ? null : Number(row.edited_at),
    deleted: Boolean(row.deleted),
    replyTo:
      row.reply_id === null ? null : { id: Number(row.reply_id), senderName: row.reply_sender as string, text: row.reply_text as string },
    mentions: (row.mentions as string[] | null) ?? [],
    reactions: Array.isArray(row.reactions) ? (row.reactions as RoomMessage['reactions']) : [],
    clientId: (row.client_id as string | null) ?? null,
    ...(Array.isArray(row.emoji) && row.emoji.length > 0 && { emoji: row.emoji as string[] }),
  };
}

/** Verified shortcodes as a text[] literal: names are [a-z0-9_] only, so nothing needs quoting. */
const emojiArray = (emoji: string[] | undefined) => (emoji && emoji.length > 0 ? `{${emoji.join(',')}}` : null);

export type NewMessage = {
  roomId: string;
  senderId: string;
  /** As the sender is called now (a held log keeps it; the stored one reads it with the message). */
  senderName: string;
  text: string;
  clientId: string;
  replyTo?: number | undefined;
  mentions: string[];
  /** The shortcodes the sender owns (checked by the caller). */
  emoji?: string[] | undefined;
  /** The gold a gift message stands for (a stream's chat shows gifts among the messages). */
  gift?: number | undefined;
};

export function messageStore(db: Db) {
  async function select(where: SQL, order: 'asc' | 'desc', limit: number): Promise<RoomMessage[]> {
    const rows = rowsOf(await db.execute(sql`${SELECT} where ${where} order by m.id ${sql.raw(order)} limit ${limit}`));
    return rows.map(toMessage);
  }

  return {
    /** Stores a message under the room's next id; null when the room does not exist. */
    /**
     * Stores a message under the room's next id and answers it as clients see it, in one round
     * trip; null when the room does not exist. A message this sender already sent under the same
     * client id (sent again because its acknowledgement was lost) is not stored twice: the copy
     * already stored is the answer.
     */
    async insert(m: NewMessage): Promise<RoomMessage | null> {
      const mentions = `{${m.mentions.join(',')}}`;
      const rows = rowsOf(
        await db.execute(sql`
          with next as (
            update stored_rooms set last_message_id = last_message_id + 1, last_message_at = now()
            where id = ${m.roomId}
              and not exists (select 1 from room_messages where room_id = ${m.roomId} and client_id = ${m.clientId} and sender_id = ${m.senderId})
            returning last_message_id
          ), ins as (
            insert into room_messages (room_id, id, sender_id, text, client_id, reply_to, mentions, emoji)
            select ${m.roomId}, next.last_message_id, ${m.senderId}, ${m.text}, ${m.clientId},
              (select id from room_messages where room_id = ${m.roomId} and id = ${m.replyTo ?? null}::bigint), ${mentions}::uuid[],
              ${emojiArray(m.emoji)}::text[]
            from next returning *
          ), read as (
            update room_members set last_read_id = (select id from ins) where room_id = ${m.roomId} and user_id = ${m.senderId} and exists (select 1 from ins)
          )
          select ${COLUMNS} from ins m ${JOINS}`),
      );
      if (rows[0]) return toMessage(rows[0]);
      const [again] = rowsOf(
        await db.execute(
          sql`select id::float8 as id from room_messages where room_id = ${m.roomId} and client_id = ${m.clientId} and sender_id = ${m.senderId} limit 1`,
        ),
      );
      return again ? this.one(m.roomId, Number(again.id)) : null;
    },

    async one(roomId: string, id: number): Promise<RoomMessage | null> {
      const [m] = await select(sql`m.room_id = ${roomId} and m.id = ${id}`, 'asc', 1);
      return m ?? null;
    },

    /** Up to `limit` messages before `before` (newest of them), oldest first; `hasMore` when older ones exist. */
    async before(roomId: string, before: number | undefined, limit: number) {
      const where = before === undefined ? sql`m.room_id = ${roomId}` : sql`m.room_id = ${roomId} and m.id < ${before}`;
      const rows = await select(where, 'desc', limit + 1);
      const hasMore = rows.length > limit;
      const messages = rows.slice(0, limit).reverse();
      return { messages, hasMore };
    },

    /** Up to `limit` messages after `after`, oldest first; `hasMore` when newer ones exist. */
    async after(roomId: string, after: number, limit: number) {
      const rows = await select(sql`m.room_id = ${roomId} and m.id > ${after}`, 'asc', limit + 1);
      const hasMore = rows.length > limit;
      const messages = rows.slice(0, limit);
      return { messages, hasMore };
    },

    /** The messages of these ids in the room, oldest first; ids not in the room are left out (reports' evidence). */
    async byIds(roomId: string, ids: number[]): Promise<RoomMessage[]> {
      if (ids.length === 0) return [];
      return select(sql`m.room_id = ${roomId} and m.id = any(${`{${ids.join(',')}}`}::bigint[])`, 'asc', ids.length);
    },

    /** The author and state of a message, for edit and delete checks. */
    async author(roomId: string, id: number): Promise<{ senderId: string | null; deleted: boolean } | null> {
      const rows = rowsOf(
        await db.execute(
          sql`select sender_id, deleted_at is not null as deleted from room_messages where room_id = ${roomId} and id = ${id}`,
        ),
      );
      const r = rows[0];
      return r ? { senderId: (r.sender_id as string | null) ?? null, deleted: Boolean(r.deleted) } : null;
    },

    async edit(roomId: string, id: number, text: string, emoji?: string[]) {
      await db.execute(
        sql`update room_messages set text = ${text}, emoji = ${emojiArray(emoji)}::text[], edited_at = now()
            where room_id = ${roomId} and id = ${id} and deleted_at is null`,
      );
      return this.one(roomId, id);
    },

    /** The text is erased, not just hidden: a removed message is gone from the database too. */
    async remove(roomId: string, id: number, by: string) {
      await db.execute(
        sql`update room_messages set text = '', deleted_at = now(), deleted_by = ${by} where room_id = ${roomId} and id = ${id} and deleted_at is null`,
      );
      await db.execute(sql`delete from room_reactions where room_id = ${roomId} and message_id = ${id}`);
      return this.one(roomId, id);
    },

    async react(roomId: string, id: number, userId: string, emoji: string, on: boolean) {
      if (on)
        await db.execute(
          sql`insert into room_reactions (room_id, message_id, user_id, emoji) select ${roomId}, ${id}, ${userId}, ${emoji}
              where exists (select 1 from room_messages where room_id = ${roomId} and id = ${id} and deleted_at is null)
              on conflict do nothing`,
        );
      else
        await db.execute(
          sql`delete from room_reactions where room_id = ${roomId} and message_id = ${id} and user_id = ${userId} and emoji = ${emoji}`,
        );
      return this.one(roomId, id);
    },
  };
}

export type MessageStore = ReturnType<typeof messageStore>;

/** Where a room kind keeps its messages: PostgreSQL (messageStore) or memory (memoryLog), the same to the room core. */
export type MessageLog = Pick<MessageStore, 'insert' | 'one' | 'before' | 'after' | 'byIds' | 'author' | 'edit' | 'remove' | 'react'>;
