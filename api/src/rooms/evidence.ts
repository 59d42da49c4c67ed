import { sql } from 'drizzle-orm';
import { SAFETY_ERR } from '@parley/contract/safety';
import type { RoomMessage } from '@parley/contract/rooms';
import type { Db } from '../db/client.ts';
import type { HeldEvidence, HeldMessage } from '../deps.ts';
import { DomainError } from '../platform/errors.ts';
import type { RoomCore } from './core.ts';

const held = (m: RoomMessage): HeldMessage => ({ id: m.id, senderId: m.senderId, senderName: m.senderName, text: m.text, sentAt: m.sentAt });
const numeric = (ids: Array<number | string>) => ids.filter((id): id is number => typeof id === 'number');

/**
 * A stored room's messages as a report reads them (read-only): only a member of a room of this
 * kind may report from it, and only its own messages count as evidence.
 */
export function storedRoomEvidence(rooms: () => RoomCore, kind: 'group' | 'direct'): HeldEvidence {
  return {
    async access(roomId, reporterId, otherId) {
      const [mine, theirs] = await Promise.all([rooms().members.access(roomId, reporterId), rooms().members.access(roomId, otherId)]);
      if (!mine || mine.room.kind !== kind) throw new DomainError('not_found', SAFETY_ERR.notInRoom, 'unknown_room');
      if (!mine.member) throw new DomainError('forbidden', SAFETY_ERR.notInRoom, 'not_member');
      return { otherInRoom: Boolean(theirs?.member) || Boolean(theirs?.banned) };
    },
    async byIds(roomId, ids) {
      return (await rooms().messages.byIds(roomId, numeric(ids))).map(held);
    },
    async around(roomId, id, limit) {
      const messages = rooms().messages;
      if (typeof id !== 'number') return (await messages.before(roomId, undefined, limit)).messages.map(held);
      // Half before the reported message (it included), half after: what led to it and how it went on.
      const before = await messages.before(roomId, id + 1, Math.ceil(limit / 2));
      const after = await messages.after(roomId, id, limit - before.messages.length);
      return [...before.messages, ...after.messages].map(held);
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
