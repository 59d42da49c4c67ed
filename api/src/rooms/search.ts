import { sql, type SQL } from 'drizzle-orm';
import type { SearchHit, SearchHitContent, SearchPage, SearchQuery, SnippetPart } from '@parley/contract/search';
import type { Db } from '../db/client.ts';

type Row = Record<string, unknown>;
const rowsOf = (r: unknown) => (r as { rows: Row[] }).rows;

/** Private-use characters around a match in ts_headline's answer; taken out of the text first, so a message cannot fake one. */
const START = '\uE000';
const STOP = '\uE001';
const HEADLINE = `StartSel=${START}, StopSel=${STOP}, MaxWords=24, MinWords=8, ShortWord=0, MaxFragments=2, FragmentDelimiter=" … "`;
const PLAIN_SNIPPET_CHARS = 160;

/** has:link: a message with a web link, which messages show as one (contract/links.ts: http and https only). */
const HAS_LINK = 'https?://';

/**
 * The rooms `me` may read now, as the room core checks them (core.readable): a member, not banned,
 * a direct pair friends without a block; with what a hit shows of its room and how its words are stemmed.
 */
function readableRooms(me: string, roomId: string | undefined): SQL {
  return sql`select r.id, r.kind, case when r.kind = 'direct' then coalesce(
      (select o.username from users o where o.id <> ${me}
        and o.id in (split_part(r.direct_key, ':', 1)::uuid, split_part(r.direct_key, ':', 2)::uuid) limit 1), '') else r.name end as room_name,
      room_search_config(r.language)::text as config
    from room_members rm join stored_rooms r on r.id = rm.room_id
    where rm.user_id = ${me} and r.kind in ('group', 'direct') and r.closed_at is null
      ${roomId === undefined ? sql`` : sql`and r.id = ${roomId}`}
      and not exists (select 1 from room_bans b where b.room_id = r.id and b.user_id = ${me})
      and (r.kind = 'group' or (
        exists (select 1 from friendships f
          where f.user_low = split_part(r.direct_key, ':', 1)::uuid and f.user_high = split_part(r.direct_key, ':', 2)::uuid)
        and not exists (select 1 from user_blocks ub
          where (ub.blocker_id = split_part(r.direct_key, ':', 1)::uuid and ub.blocked_id = split_part(r.direct_key, ':', 2)::uuid)
             or (ub.blocker_id = split_part(r.direct_key, ':', 2)::uuid and ub.blocked_id = split_part(r.direct_key, ':', 1)::uuid))))`;
}

const DAY_MICROS = 86_400_000_000;
/**
 * The time slices searched, newest first, each this many days further back than the last (the
 * last reaches back to the start): a common word fills a page from the newest days without
 * reading its thousands of older matches, a rare one is found in a few wider slices.
 */
const SLICE_DAYS = [7, 28, 112, 448];

/** ts_headline's answer as plain runs and matches. */
export function snippetParts(headline: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  for (const [i, piece] of headline.split(START).entries()) {
    const [inside, after] = i === 0 ? [undefined, piece] : (piece.split(STOP, 2) as [string, string | undefined]);
    if (inside) parts.push({ text: inside, match: true });
    if (after) parts.push({ text: after, match: false });
  }
  return parts;
}

const cursorOf = (row: Row) => `${String(row.micros)}:${String(row.room_id)}:${String(row.id)}`;

/**
 * Message search over the rooms someone belongs to (their direct conversations and group rooms;
 * never a stream's chat or a 1:1 chat with a stranger, whose messages are not kept). Deleted
 * messages and those of people blocked either way are left out, as the rooms themselves hide them.
 * Newest first, paged by (time, room, id).
 */
export function messageSearch(db: Db) {
  /** The rooms searched, asked first: the messages are then read room by room through the indexes, never joined to every membership. */
  async function roomsOf(me: string, roomId: string | undefined) {
    const rows = rowsOf(await db.execute(readableRooms(me, roomId)));
    return new Map(
      rows.map((r) => [r.id as string, { kind: r.kind as 'group' | 'direct', name: r.room_name as string, config: r.config as string }]),
    );
  }

  return {
    async search(me: string, q: SearchQuery): Promise<SearchPage> {
      const rooms = await roomsOf(me, q.roomId);
      if (rooms.size === 0) return { hits: [], next: null };
      const words = q.q;
      let tsquery: SQL | undefined;
      if (words !== '') {
        // The words as each of these rooms stems them (and as written).
        const configs = [...new Set(['simple', ...[...rooms.values()].map((r) => r.config)])];
        tsquery = sql.join(
          configs.map((c) => sql`websearch_to_tsquery(${c}::regconfig, ${words})`),
          sql` || `,
        );
      }
      const where: SQL[] = [sql`m.room_id = any(${`{${[...rooms.keys()].join(',')}}`}::uuid[])`, sql`m.deleted_at is null`];
      if (tsquery) where.push(sql`m.search @@ (${tsquery})`);
      if (q.from !== undefined) where.push(sql`m.sender_id = (select id from users where lower(username) = lower(${q.from}) limit 1)`);
      if (q.hasLink) where.push(sql`m.text ~* ${HAS_LINK}`);
      // Said as the partial index of messages with media says it, so that the index serves it.
      if (q.hasPicture || q.hasVoice) where.push(sql`(m.attachment_id is not null or m.media is not null)`);
      const attachmentIs = (kind: string) =>
        sql`exists (select 1 from room_attachments a where a.id = m.attachment_id and a.kind = ${kind})`;
      if (q.hasPicture) where.push(sql`(${attachmentIs('image')} or m.media->>'kind' = 'gif')`);
      if (q.hasVoice) where.push(attachmentIs('voice'));
      if (q.cursor) {
        const [micros, roomId, id] = q.cursor.split(':') as [string, string, string];
        where.push(
          sql`(m.created_at, m.room_id, m.id) < (timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond', ${roomId}::uuid, ${id}::bigint)`,
        );
      }
      const headline = tsquery
        ? sql`ts_headline(m.search_config, translate(m.text, ${START + STOP}, ''), (${tsquery}), ${HEADLINE})`
        : sql`left(m.text, ${PLAIN_SNIPPET_CHARS})`;
      // The time slices, newest first, from the page's start (the cursor, `before`, or now) back to `after` or the beginning.
      const micros = (d: Date) => d.getTime() * 1000;
      const floor = q.after ? micros(q.after) : undefined;
      const cursorMicros = q.cursor ? Number(q.cursor.split(':')[0]) + 1 : undefined;
      const top = Math.min(cursorMicros ?? Infinity, q.before ? micros(q.before) : Infinity);
      const start = Number.isFinite(top) ? top : Date.now() * 1000;
      const slices: Array<[from: number | undefined, to: number | undefined]> = [];
      let to: number | undefined = Number.isFinite(top) ? top : undefined;
      for (const back of [...SLICE_DAYS, undefined]) {
        let from = back === undefined ? floor : start - back * DAY_MICROS;
        if (floor !== undefined && from !== undefined && from <= floor) from = floor;
        slices.push([from, to]);
        if (from === floor) break;
        to = from;
      }
      /** The newest hits sent in [from, to) (microseconds since the epoch; undefined: unbounded). */
      const slice = ([from, to]: [number | undefined, number | undefined]) => sql`(
        select m.room_id, m.id, m.thread_id, m.sender_id, m.created_at, m.text, m.search_config, m.attachment_id, m.media
        from room_messages m
        where ${sql.join(where, sql` and `)}
          ${from === undefined ? sql`` : sql`and m.created_at >= timestamptz 'epoch' + ${from}::bigint * interval '1 microsecond'`}
          ${to === undefined ? sql`` : sql`and m.created_at < timestamptz 'epoch' + ${to}::bigint * interval '1 microsecond'`}
          and (m.sender_id is null or not exists (select 1 from user_blocks ub
            where (ub.blocker_id = ${me} and ub.blocked_id = m.sender_id) or (ub.blocker_id = m.sender_id and ub.blocked_id = ${me})))
        order by m.created_at desc, m.room_id desc, m.id desc
        limit ${q.limit + 1})`;
      // One statement: the slices are read in turn (UNION ALL's Append) and reading stops once the
      // page is full, so an older slice is never read for a common word. The page's senders,
      // attachments and snippets are looked up for its rows alone.
      const rows = rowsOf(
        await db.execute(sql`
          select m.room_id, m.id::float8 as id, m.thread_id::float8 as thread_id, m.sender_id, coalesce(u.username, 'Someone') as sender_name,
            (extract(epoch from m.created_at) * 1000)::float8 as sent_at,
            (extract(epoch from m.created_at) * 1000000)::bigint::text as micros,
            ${headline} as snippet,
            case a.kind when 'image' then 'picture' when 'voice' then 'voice' else m.media->>'kind' end as content
          from (select * from (${sql.join(slices.map(slice), sql` union all `)}) s limit ${q.limit + 1}) m
            left join users u on u.id = m.sender_id
            left join room_attachments a on a.id = m.attachment_id
          order by m.created_at desc, m.room_id desc, m.id desc`),
      );
      const page = rows.slice(0, q.limit);
      const hits: SearchHit[] = page.map((r) => {
        const room = rooms.get(r.room_id as string)!;
        return {
          roomId: r.room_id as string,
          roomKind: room.kind,
          roomName: room.name,
          messageId: Number(r.id),
          senderId: (r.sender_id as string | null) ?? '',
          senderName: r.sender_name as string,
          sentAt: Number(r.sent_at),
          snippet: tsquery ? snippetParts(r.snippet as string) : [{ text: r.snippet as string, match: false }],
          ...(r.thread_id !== null && r.thread_id !== undefined && { threadId: Number(r.thread_id) }),
          ...(typeof r.content === 'string' && { content: r.content as SearchHitContent }),
        };
      });
      return { hits, next: rows.length > q.limit ? cursorOf(page.at(-1)!) : null };
    },
  };
}

export type MessageSearch = ReturnType<typeof messageSearch>;
