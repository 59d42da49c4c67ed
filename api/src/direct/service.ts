import { sql } from 'drizzle-orm';
import { DIRECT_REFUSALS, type Conversation, type ConversationsAnswer, type OpenDirectAnswer } from '@parley/contract/direct';
import type { Db } from '../db/client.ts';
import { DomainError } from '../platform/errors.ts';
import { ATTACHMENT_QUOTE } from '../rooms/messageStore.ts';

type Row = Record<string, unknown>;
const rowsOf = (r: unknown) => (r as { rows: Row[] }).rows;

/** A pair's direct room is found by this key: the two ids, smaller first. */
export const directKey = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`);
const PREVIEW_CHARS = 140;

export type DirectDeps = {
  db: Db;
  areFriends(a: string, b: string): Promise<boolean>;
  isOnline(userId: string): Promise<boolean>;
};

/** Direct messages: one stored room per pair of friends, opened the first time either writes. */
export function directService({ db, areFriends, isOnline }: DirectDeps) {
  return {
    async open(userId: string, username: string): Promise<OpenDirectAnswer> {
      const [friend] = rowsOf(await db.execute(sql`select id, username, avatar from users where lower(username) = lower(${username})`));
      if (!friend || friend.id === userId) throw new DomainError('not_found', DIRECT_REFUSALS.unknownUser, 'unknown_user');
      const friendId = friend.id as string;
      if (!(await areFriends(userId, friendId))) throw new DomainError('forbidden', DIRECT_REFUSALS.notFriends, 'not_friends');
      const key = directKey(userId, friendId);
      // Both may open it at once: the unique key keeps one room, and the second insert reads the first.
      const roomId = await db.transaction(async (tx) => {
        await tx.execute(sql`insert into stored_rooms (kind, direct_key) values ('direct', ${key}) on conflict (direct_key) do nothing`);
        const [room] = rowsOf(await tx.execute(sql`select id from stored_rooms where direct_key = ${key}`));
        const id = room!.id as string;
        await tx.execute(
          sql`insert into room_members (room_id, user_id) values (${id}, ${userId}), (${id}, ${friendId}) on conflict do nothing`,
        );
        return id;
      });
      return {
        roomId,
        userId: friendId,
        username: friend.username as string,
        avatar: friend.avatar as string,
        online: await isOnline(friendId),
      };
    },

    /** The user's direct conversations with friends, latest first, with unread counts. */
    async conversations(userId: string): Promise<ConversationsAnswer> {
      const rows = rowsOf(
        await db.execute(sql`
          select r.id as room_id, u.id as user_id, u.username, u.avatar,
            greatest(r.last_message_id - me.last_read_id, 0)::float8 as unread,
            -- A picture or voice message without words shows as one in the list.
            case when lm.text = '' and (lm.attachment_id is not null or lm.media is not null) then ${ATTACHMENT_QUOTE} else lm.text end as text, lm.sender_id, lm.deleted_at is not null as deleted, (extract(epoch from lm.created_at) * 1000)::float8 as sent_at
          from room_members me
          join stored_rooms r on r.id = me.room_id and r.kind = 'direct'
          join room_members other on other.room_id = r.id and other.user_id <> me.user_id
          join users u on u.id = other.user_id
          join friendships f on f.user_low = least(me.user_id, other.user_id) and f.user_high = greatest(me.user_id, other.user_id)
          left join room_messages lm on lm.room_id = r.id and lm.id = r.last_message_id
          where me.user_id = ${userId}
          order by r.last_message_at desc nulls last`),
      );
      const conversations: Conversation[] = await Promise.all(
        rows.map(async (r) => ({
          roomId: r.room_id as string,
          userId: r.user_id as string,
          username: r.username as string,
          avatar: r.avatar as string,
          online: await isOnline(r.user_id as string),
          lastMessage:
            r.sent_at === null
              ? null
              : {
                  text: r.deleted ? '' : (r.text as string).slice(0, PREVIEW_CHARS),
                  senderId: (r.sender_id as string | null) ?? '',
                  sentAt: Number(r.sent_at),
                  deleted: Boolean(r.deleted),
                },
          unread: Number(r.unread),
        })),
      );
      return { conversations, unreadTotal: conversations.reduce((n, c) => n + c.unread, 0) };
    },
  };
}
