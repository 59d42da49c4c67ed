import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** A broadcaster's channel as a stream starts: what its moderation stored from the streams before. */
export type ChannelState = {
  /** The stored room (kind `channel`) holding the channel's moderators, bans, mutes, slow mode and record. */
  roomId: string;
  moderators: Array<{ userId: string; username: string; avatar: string }>;
  banned: string[];
  /** Mutes still running, until when (epoch ms). */
  muted: Array<{ userId: string; mutedUntil: number }>;
  slowModeS: number;
};

type Row = Record<string, unknown>;
const rowsOf = (r: unknown) => (r as { rows: Row[] }).rows;

/**
 * Broadcasters' channels: a stream's moderators and bans belong to the broadcaster and last from
 * one stream to the next (as on Twitch); made on their first stream.
 */
export function channelStore(db: Db) {
  return {
    async load(broadcasterId: string): Promise<ChannelState> {
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`insert into stored_rooms (kind, owner_id, channel_of) values ('channel', ${broadcasterId}, ${broadcasterId}) on conflict (channel_of) do nothing`,
        );
        const [room] = rowsOf(await tx.execute(sql`select id, slow_mode_s from stored_rooms where channel_of = ${broadcasterId}`));
        const roomId = room!.id as string;
        await tx.execute(
          sql`insert into room_members (room_id, user_id, role) values (${roomId}, ${broadcasterId}, 'owner') on conflict do nothing`,
        );
        const moderators = rowsOf(
          await tx.execute(sql`select u.id, u.username, u.avatar from room_members m join users u on u.id = m.user_id
            where m.room_id = ${roomId} and m.role = 'moderator' order by lower(u.username)`),
        );
        const banned = rowsOf(await tx.execute(sql`select user_id from room_bans where room_id = ${roomId}`));
        const muted = rowsOf(
          await tx.execute(sql`select user_id, floor(extract(epoch from muted_until) * 1000)::float8 as until from room_mutes
            where room_id = ${roomId} and muted_until > now()`),
        );
        return {
          roomId,
          moderators: moderators.map((r) => ({ userId: r.id as string, username: r.username as string, avatar: r.avatar as string })),
          banned: banned.map((r) => r.user_id as string),
          muted: muted.map((r) => ({ userId: r.user_id as string, mutedUntil: Number(r.until) })),
          slowModeS: Number(room!.slow_mode_s),
        };
      });
    },
  };
}

export type ChannelStore = ReturnType<typeof channelStore>;
