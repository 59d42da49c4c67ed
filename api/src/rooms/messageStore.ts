import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { nameStyleOf } from '@parley/contract/billing';
import type { RoomMessage } from '@parley/contract/rooms';
import type { AttachmentKind, MessageAttachment } from '@parley/contract/attachments';
import { mediaView, type StoredMedia } from '@parley/contract/media';
import { attachmentStore, attachmentView } from './attachments.ts';
import { POOL_SIZE, type Db } from '../db/client.ts';
import { preparedStatements } from '../db/prepared.ts';

/**
 * Stored rooms' messages in PostgreSQL. A message's id comes from its room's `last_message_id`,
 * raised in the same statement that inserts it: the row lock on the room orders its messages, so
 * ids increase without gaps and commit in id order. Pages read the (room, id) primary key.
 */

type Row = Record<string, unknown>;
const rowsOf = (r: unknown) => (r as { rows: Row[] }).rows;

/** What a reply shows of the message it answers. */
const QUOTE_CHARS = 140;
/** A reply to a picture, voice message, sticker or GIF without words quotes this (an empty quote reads as deleted). */
// U& escape: the server's bundle stays ASCII (a non-ASCII character makes V8 hold its whole source at two bytes a character).
export const ATTACHMENT_QUOTE = sql.raw(String.raw`U&'\+01F4CE'`);

const COLUMNS = sql`m.room_id, m.id::float8 as id, m.sender_id, coalesce(u.username, 'Someone') as sender_name,
    u.premium_user as sender_tier, u.name_colour as sender_colour,
    case when m.deleted_at is null then m.text else '' end as text,
    m.client_id, m.mentions::text[] as mentions, case when m.deleted_at is null then m.emoji end as emoji, m.deleted_at is not null as deleted,
    (extract(epoch from m.created_at) * 1000)::float8 as sent_at,
    (extract(epoch from m.edited_at) * 1000)::float8 as edited_at,
    r.id::float8 as reply_id, coalesce(ru.username, 'Someone') as reply_sender,
    case when r.deleted_at is not null then '' when r.text = '' and (r.attachment_id is not null or r.media is not null) then ${ATTACHMENT_QUOTE}
      else left(r.text, ${sql.raw(String(QUOTE_CHARS))}) end as reply_text,
    case when m.deleted_at is null then a.id end as att_id, a.kind as att_kind, a.width as att_width, a.height as att_height,
    a.duration_ms as att_duration, case when m.deleted_at is null then m.media end as media, m.thread_id::float8 as thread_id`;
const JOINS = sql`left join users u on u.id = m.sender_id
  left join room_messages r on r.room_id = m.room_id and r.id = m.reply_to
  left join users ru on ru.id = r.sender_id
  left join room_attachments a on a.id = m.attachment_id`;
/** A message's reactions, each emoji with who gave it in order, emoji in the order first given: read with the page, not after it. */
const REACTIONS = sql`(select coalesce(json_agg(json_build_object('emoji', x.emoji, 'userIds', x.user_ids) order by x.first_at), '[]'::json)
    from (select rr.emoji, array_agg(rr.user_id::text order by rr.created_at) as user_ids, min(rr.created_at) as first_at
      from room_reactions rr where rr.room_id = m.room_id and rr.message_id = m.id group by rr.emoji) x) as reactions`;
/** A message's thread: its replies that are not deleted and when the last came (null without any); read by the thread index. */
const THREAD = sql`(select json_build_object('replies', count(*), 'lastReplyAt', (extract(epoch from max(t.created_at)) * 1000)::float8)
    from room_messages t where t.room_id = m.room_id and t.thread_id = m.id and t.deleted_at is null) as thread`;
const SELECT = sql`select ${COLUMNS}, ${REACTIONS}, ${THREAD} from room_messages m ${JOINS}`;
/** The room's own messages, without its threads' replies. */
const MAIN = sql`m.thread_id is null`;

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
    ...(typeof row.att_id === 'string' && {
      attachment: attachmentView(row.room_id as string, {
        id: row.att_id,
        kind: row.att_kind as AttachmentKind,
        width: row.att_width as number | null,
        height: row.att_height as number | null,
        durationMs: row.att_duration as number | null,
      }),
    }),
    ...mediaOf(row.media),
    ...(row.thread_id !== null && row.thread_id !== undefined && { threadId: Number(row.thread_id) }),
    ...threadOf(row.thread),
  };
}

function mediaOf(v: unknown): Pick<RoomMessage, 'media'> {
  const m = (typeof v === 'string' ? JSON.parse(v) : v) as StoredMedia | null | undefined;
  return m ? { media: mediaView(m) } : {};
}

function threadOf(v: unknown): Pick<RoomMessage, 'thread'> {
  const t = (typeof v === 'string' ? JSON.parse(v) : v) as
    { replies: number | string; lastReplyAt: number | string | null } | null | undefined;
  if (!t || Number(t.replies) === 0 || t.lastReplyAt === null) return {};
  return { thread: { replies: Number(t.replies), lastReplyAt: Number(t.lastReplyAt) } };
}

/** Verified shortcodes as a text[] literal: names are [a-z0-9_] only, so nothing needs quoting. */
const emojiArray = (emoji: string[] | undefined) => (emoji && emoji.length > 0 ? `{${emoji.join(',')}}` : null);

/** Lone UTF-16 surrogates as U+FFFD, as node-postgres encodes them (JSON would carry them as escapes PostgreSQL refuses). */
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/**
 * The batch insert (messageStore.insertMany), one parameter: the messages as JSON. Its text never
 * changes: it is planned once per session (db/prepared.ts), not per batch.
 * The planner guesses 100 rows for any JSON input and would then hash whole tables (every
 * message, member and room) to join them: each lookup is written so that it stays an index probe
 * per row (scalar subqueries, = any(array(...)), lateral with limit), and the rooms' new last ids
 * (each as [last id, search configuration], read once per room rather than per message; their
 * counts; the senders' read positions) are JSON objects looked up by key, rather
 * than joins that a plan made while the tables were small would keep as nested loops over them. The rooms' rows are locked
 * in id order, so statements of other processes writing to the same rooms wait for one another
 * instead of deadlocking.
 */
const INSERT_MANY = new PgDialect().sqlToQuery(sql`
    with input as materialized (
      select * from jsonb_to_recordset(${sql.placeholder('input')}::jsonb)
        as i(ord int, room_id uuid, sender_id uuid, text text, client_id text, reply_to bigint, mentions uuid[], emoji text[], attachment_id uuid, media jsonb, thread_id bigint)
    ), fresh as materialized (
      select i.* from (
        select *, row_number() over (partition by room_id, sender_id, client_id order by ord) as nth from input
      ) i
      where i.nth = 1
        and (select 1 from room_messages p where p.room_id = i.room_id and p.client_id = i.client_id and p.sender_id = i.sender_id limit 1) is null
    ), locked as (
      select r.id from stored_rooms r where r.id = any(array(select room_id from fresh)) order by r.id for update
    ), counts as materialized (
      select jsonb_object_agg(room_id, n) as n from (select room_id, count(*) as n from fresh group by room_id) c
    ), bump as (
      update stored_rooms r set last_message_id = r.last_message_id + (c.n ->> r.id::text)::bigint, last_message_at = now()
      from counts c
      where r.id = any(array(select id from locked))
      returning r.id, r.last_message_id as last, room_search_config(r.language) as config
    ), lasts as materialized (
      select jsonb_object_agg(id, jsonb_build_array(last, config::text)) as bumped from bump
    ), numbered as (
      select g.*, (g.bumped -> 0)::bigint - count(*) over (partition by g.room_id) + row_number() over (partition by g.room_id order by g.ord) as id
      from (select f.*, l.bumped -> f.room_id::text as bumped from fresh f, lasts l where l.bumped ? f.room_id::text) g
    ), ins as (
      insert into room_messages (room_id, id, sender_id, text, client_id, reply_to, mentions, emoji, attachment_id, media, search_config, thread_id)
      select n.room_id, n.id, n.sender_id, n.text, n.client_id,
        (select p.id from room_messages p where p.room_id = n.room_id and p.id = n.reply_to), n.mentions, n.emoji, n.attachment_id, n.media,
        (n.bumped ->> 1)::regconfig, n.thread_id
      from numbered n returning *
    ), reads as materialized (
      select jsonb_object_agg(room_id || ' ' || sender_id, id) as last
      from (select room_id, sender_id, max(id) as id from ins where thread_id is null group by room_id, sender_id) x
    ), read as (
      update room_members rm set last_read_id = (x.last ->> (rm.room_id || ' ' || rm.user_id))::bigint
      from reads x
      where rm.room_id = any(array(select room_id from ins)) and x.last ? (rm.room_id || ' ' || rm.user_id)
    )
    select ${COLUMNS} from ins m
      left join lateral (select username, premium_user, name_colour from users where id = m.sender_id limit 1) u on true
      left join lateral (select id, sender_id, text, deleted_at, attachment_id, media from room_messages where room_id = m.room_id and id = m.reply_to limit 1) r on true
      left join lateral (select username from users where id = r.sender_id limit 1) ru on true
      left join lateral (select id, kind, width, height, duration_ms from room_attachments where id = m.attachment_id limit 1) a on true`).sql;

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
  /** Its picture or voice message, claimed for it by the caller. */
  attachmentId?: string | undefined;
  /** The claimed attachment as the message carries it: a held log keeps it with the message (a stored one reads it back). */
  attachment?: MessageAttachment | undefined;
  /** Its sticker or GIF, checked by the caller (stored kinds only). */
  media?: StoredMedia | undefined;
  /** A reply in this message's thread (checked by the caller: a message of the room itself). */
  threadId?: number | undefined;
};

export function messageStore(db: Db) {
  const run = preparedStatements(db);
  const attachments = attachmentStore(db);

  async function select(where: SQL, order: 'asc' | 'desc', limit: number): Promise<RoomMessage[]> {
    const rows = rowsOf(await db.execute(sql`${SELECT} where ${where} order by m.id ${sql.raw(order)} limit ${limit}`));
    return rows.map(toMessage);
  }

  return {
    /**
     * Opens every pooled connection and plans the insert on each, storing nothing: after a start
     * or a deploy everyone reconnects and posts at once, and each post would otherwise wait for a
     * connection to open and the statement to be planned.
     */
    async warm(): Promise<void> {
      await Promise.all(Array.from({ length: POOL_SIZE }, () => run(INSERT_MANY, ['[]'])));
    },

    /** Stores one message (insertMany of one); null when the room does not exist. */
    async insert(m: NewMessage): Promise<RoomMessage | null> {
      return (await this.insertMany([m]))[0]!.message;
    },

    /**
     * Stores messages, of one room or many, in one statement (one round trip, one commit), each
     * under its room's next id in the order given, and answers each as clients see it: `fresh`
     * when this call stored it, else the copy stored before under the same sender and client id (a
     * resend whose acknowledgement was lost, or the same message twice in `ms`), or null when the
     * room does not exist.
     */
    async insertMany(ms: readonly NewMessage[]): Promise<Array<{ message: RoomMessage | null; fresh: boolean }>> {
      if (ms.length === 0) return [];
      // One JSON parameter for every row. A lone surrogate (which node-postgres would store as
      // U+FFFD) would make PostgreSQL refuse the whole JSON: it is made U+FFFD here alike.
      const input = JSON.stringify(
        ms.map((m, ord) => ({
          ord,
          room_id: m.roomId,
          sender_id: m.senderId,
          text: wellFormed(m.text),
          client_id: wellFormed(m.clientId),
          reply_to: m.replyTo ?? null,
          mentions: m.mentions,
          emoji: m.emoji && m.emoji.length > 0 ? m.emoji : null,
          attachment_id: m.attachmentId ?? null,
          media: m.media ?? null,
          thread_id: m.threadId ?? null,
        })),
      );
      const rows = await run(INSERT_MANY, [input]);
      const out: Array<{ message: RoomMessage | null; fresh: boolean }> = ms.map(() => ({ message: null, fresh: false }));
      // Each stored row is the first of its sender and client id in `ms` (the statement keeps only those).
      const key = (roomId: string, senderId: string, clientId: string) => `${roomId.toLowerCase()}\n${senderId.toLowerCase()}\n${clientId}`;
      const firstOf = new Map<string, number>();
      for (const [i, m] of ms.entries()) {
        const k = key(m.roomId, m.senderId, wellFormed(m.clientId));
        if (!firstOf.has(k)) firstOf.set(k, i);
      }
      for (const row of rows) {
        const message = toMessage(row);
        out[firstOf.get(key(message.roomId, message.senderId, message.clientId ?? ''))!] = { message, fresh: true };
      }
      // Not stored now: stored before (a resend, or the same one earlier in `ms`), or no such room.
      for (const [i, m] of ms.entries()) {
        const first = out[firstOf.get(key(m.roomId, m.senderId, wellFormed(m.clientId)))!]!;
        if (first.fresh && !out[i]!.fresh && out[i] !== first) out[i] = { message: first.message, fresh: false };
      }
      for (const [i, m] of ms.entries()) {
        if (out[i]!.message) continue;
        const [again] = rowsOf(
          await db.execute(
            sql`select id::float8 as id from room_messages where room_id = ${m.roomId} and client_id = ${m.clientId} and sender_id = ${m.senderId} limit 1`,
          ),
        );
        if (again) out[i] = { message: await this.one(m.roomId, Number(again.id)), fresh: false };
      }
      return out;
    },

    async one(roomId: string, id: number): Promise<RoomMessage | null> {
      const [m] = await select(sql`m.room_id = ${roomId} and m.id = ${id}`, 'asc', 1);
      return m ?? null;
    },

    /**
     * Up to `limit` of the room's own messages before `before` (newest of them), oldest first;
     * `hasMore` when older ones exist. `thread`: that thread's replies instead.
     */
    async before(roomId: string, before: number | undefined, limit: number, thread?: number) {
      const of = thread === undefined ? sql`m.room_id = ${roomId} and ${MAIN}` : sql`m.room_id = ${roomId} and m.thread_id = ${thread}`;
      const where = before === undefined ? of : sql`${of} and m.id < ${before}`;
      const rows = await select(where, 'desc', limit + 1);
      const hasMore = rows.length > limit;
      const messages = rows.slice(0, limit).reverse();
      return { messages, hasMore };
    },

    /** Up to `limit` of the room's own messages after `after`, oldest first; `hasMore` when newer ones exist. `thread`: that thread's. */
    async after(roomId: string, after: number, limit: number, thread?: number) {
      const of = thread === undefined ? sql`m.room_id = ${roomId} and ${MAIN}` : sql`m.room_id = ${roomId} and m.thread_id = ${thread}`;
      const rows = await select(sql`${of} and m.id > ${after}`, 'asc', limit + 1);
      const hasMore = rows.length > limit;
      const messages = rows.slice(0, limit);
      return { messages, hasMore };
    },

    /** The room's messages whose threads had a reply after `after` (a page catching up), as they are now. */
    async threadsMovedAfter(roomId: string, after: number, limit: number): Promise<RoomMessage[]> {
      return select(
        sql`m.room_id = ${roomId} and m.id in (select distinct t.thread_id from room_messages t where t.room_id = ${roomId} and t.thread_id is not null and t.id > ${after} limit ${limit})`,
        'asc',
        limit,
      );
    },

    /** The messages of these ids in the room, oldest first; ids not in the room are left out (reports' evidence). */
    async byIds(roomId: string, ids: number[]): Promise<RoomMessage[]> {
      if (ids.length === 0) return [];
      return select(sql`m.room_id = ${roomId} and m.id = any(${`{${ids.join(',')}}`}::bigint[])`, 'asc', ids.length);
    },

    /** The author and state of a message, for edit and delete checks (`threadId`: a thread's reply). */
    async author(roomId: string, id: number): Promise<{ senderId: string | null; deleted: boolean; threadId?: number } | null> {
      const rows = rowsOf(
        await db.execute(
          sql`select sender_id, deleted_at is not null as deleted, thread_id::float8 as thread_id from room_messages where room_id = ${roomId} and id = ${id}`,
        ),
      );
      const r = rows[0];
      if (!r) return null;
      return {
        senderId: (r.sender_id as string | null) ?? null,
        deleted: Boolean(r.deleted),
        ...(r.thread_id !== null && { threadId: Number(r.thread_id) }),
      };
    },

    async edit(roomId: string, id: number, text: string, emoji?: string[]) {
      await db.execute(
        sql`update room_messages set text = ${text}, emoji = ${emojiArray(emoji)}::text[], edited_at = now()
            where room_id = ${roomId} and id = ${id} and deleted_at is null`,
      );
      return this.one(roomId, id);
    },

    /**
     * The text is erased, not just hidden: a removed message is gone from the database too, and
     * so is its attachment (unless a report keeps it as evidence).
     */
    async remove(roomId: string, id: number, by: string) {
      await attachments.forgetOf(roomId, id);
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
