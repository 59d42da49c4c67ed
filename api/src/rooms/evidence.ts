import { sql } from 'drizzle-orm';
import { EVIDENCE_DAYS, SAFETY_ERR } from '@parley/contract/safety';
import type { RoomKind, RoomMessage } from '@parley/contract/rooms';
import type { Db } from '../db/client.ts';
import type { HeldEvidence, HeldMessage } from '../deps.ts';
import { DomainError } from '../platform/errors.ts';
import type { RoomCore } from './core.ts';

const held = (m: RoomMessage): HeldMessage => ({
  id: m.id,
  senderId: m.senderId,
  senderName: m.senderName,
  text: m.text,
  sentAt: m.sentAt,
  ...(m.attachment && { attachment: { id: m.attachment.id, kind: m.attachment.kind } }),
  // Which sticker or GIF it was: a report keeps it by name, as the server checked it.
  ...(m.media && { media: m.media }),
});
const DAY_MS = 24 * 60 * 60 * 1000;
const numeric = (ids: Array<number | string>) => ids.filter((id): id is number => typeof id === 'number');

/** How far back a report looks for a held room's messages by someone no longer in it. */
const HELD_LOOKBACK = 200;

/**
 * A room's messages as a report reads them (read-only), for every kind on the room core: only
 * someone in a room of this kind may report from it, and only its own messages count as evidence.
 * The other person counts as in it while a member (or banned from it) — or, for a room whose
 * messages are held (a stream's chat), when they wrote in it.
 */
export function roomEvidence(rooms: () => RoomCore, kind: RoomKind): HeldEvidence {
  return {
    async access(roomId, reporterId, otherId) {
      const core = rooms();
      const held = core.goneFor(kind);
      const gone = held ?? { message: SAFETY_ERR.notInRoom, code: 'unknown_room' };
      // A kind held in memory (a stream's chat) is here while it lasts, and never in the database.
      if (held && !core.isHeld(roomId)) throw new DomainError('not_found', gone.message, gone.code);
      const [mine, theirs] = await Promise.all([core.accessOf(roomId, reporterId), core.accessOf(roomId, otherId)]);
      if (!mine || mine.room.kind !== kind) throw new DomainError('not_found', gone.message, gone.code);
      if (!mine.member) throw new DomainError('forbidden', SAFETY_ERR.notInRoom, kind === 'live' ? 'not_watching' : 'not_member');
      if (theirs?.member || theirs?.banned) return { otherInRoom: true };
      const wrote =
        core.isHeld(roomId) &&
        (await core.logOf(roomId).before(roomId, undefined, HELD_LOOKBACK)).messages.some((m) => m.senderId === otherId);
      return { otherInRoom: wrote };
    },
    async byIds(roomId, ids) {
      return (await rooms().logOf(roomId).byIds(roomId, numeric(ids))).map(held);
    },
    async around(roomId, id, limit) {
      const log = rooms().logOf(roomId);
      if (typeof id !== 'number') return (await log.before(roomId, undefined, limit)).messages.map(held);
      // Half before the reported message (it included), half after: what led to it and how it went on.
      const before = await log.before(roomId, id + 1, Math.ceil(limit / 2));
      const after = await log.after(roomId, id, limit - before.messages.length);
      return [...before.messages, ...after.messages].map(held);
    },
    // Pictures and voice messages stay as long as the report's evidence does (the privacy policy's EVIDENCE_DAYS).
    async keep(roomId, attachmentIds) {
      const core = rooms();
      if (!core.isHeld(roomId)) await core.attachments.keepAsEvidence(roomId, attachmentIds, new Date(Date.now() + EVIDENCE_DAYS * DAY_MS));
    },
  };
}

/**
 * Where two people met in stored rooms, as a report's weight asks: a group room both belong to (or
 * the other was banned from), or their direct conversation in which the other wrote (a message
 * sent to someone who never answered is no encounter for the sender).
 */
export function storedRoomEncounters(db: Db) {
  const yes = (r: unknown) => Boolean((r as { rows: Array<{ met: unknown }> }).rows[0]?.met);
  return {
    async group(reporterId: string, otherId: string): Promise<boolean> {
      return yes(
        await db.execute(sql`select exists (
          select 1 from room_members mine join stored_rooms r on r.id = mine.room_id and r.kind = 'group'
          where mine.user_id = ${reporterId} and (
            exists (select 1 from room_members theirs where theirs.room_id = r.id and theirs.user_id = ${otherId})
            or exists (select 1 from room_bans b where b.room_id = r.id and b.user_id = ${otherId}))) as met`),
      );
    },
    async direct(reporterId: string, otherId: string): Promise<boolean> {
      const key = reporterId < otherId ? `${reporterId}:${otherId}` : `${otherId}:${reporterId}`;
      return yes(
        await db.execute(sql`select exists (
          select 1 from stored_rooms r join room_messages m on m.room_id = r.id and m.sender_id = ${otherId}
          where r.direct_key = ${key}) as met`),
      );
    },
  };
}
