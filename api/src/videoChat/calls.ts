import type { SocketError } from '@parley/contract/matchmaking';
import { rtcEvents, MAX_CALL_ATTEMPTS, type CallRedial } from '@parley/contract/videoChat';
import type { RoomEventSource } from '../deps.ts';
import { Refusal } from '../realtime/refusals.ts';

/** How the calls reach sockets; rtc/socket.ts implements it with socket.io. */
export interface CallOutbox {
  /** The video room's call is placed again, under the peer ids of this attempt. */
  redial(socketId: string, redial: CallRedial): void;
  error(socketId: string, error: SocketError): void;
}

/** The rooms (api/src/rooms, handed over by server.ts) as video calls use them. */
export type CallRooms = RoomEventSource & {
  roomOf(socketId: string): { roomId: string; kind: string; members: string[] } | undefined;
  isAway(socketId: string): boolean;
};

const CALL_GIVEN_UP = 'The video call could not be set up. You can still chat by text, or press Next.';

/**
 * The calls of video rooms: which attempt each room's call is at, and placing it again
 * (rtcEvents in the contract). An attempt lives as long as its room.
 */
export class VideoCalls {
  private readonly attempts = new Map<string, number>();

  constructor(
    private readonly rooms: CallRooms,
    private readonly outbox: CallOutbox,
  ) {
    rooms.on('left', (e) => this.attempts.delete(e.roomId));
  }

  /** The attempt of the room's call under way (0, the first, unless it was placed again). */
  attemptOf(roomId: string): number {
    return this.attempts.get(roomId) ?? 0;
  }

  /**
   * Places a video room's call again: both sides get the next attempt. An ask naming another
   * attempt than the current one places nothing; the asker is told the current one. Refused while
   * the partner is away (the page asks again once they are back) and past MAX_CALL_ATTEMPTS, which
   * both sides are told.
   */
  redial(socketId: string, ask: CallRedial): void {
    const room = this.rooms.roomOf(socketId);
    if (!room || room.roomId !== ask.roomId || room.kind !== 'videoChat')
      throw new Refusal('You are not in this video chat any more.', 'not_in_room');
    const attempt = this.attemptOf(room.roomId);
    // Asked for another attempt than the current one: the other side asked first, or this side
    // missed the answer (its connection dropped meanwhile); it learns the current one.
    if (ask.attempt !== attempt) return this.outbox.redial(socketId, { roomId: room.roomId, attempt });
    const partner = room.members[0] === socketId ? room.members[1]! : room.members[0]!;
    if (this.rooms.isAway(partner))
      throw new Refusal('Stranger lost their connection. The call is placed again once they are back.', 'partner_away');
    if (attempt + 1 >= MAX_CALL_ATTEMPTS) {
      // Both sides hear it: the side whose call did not fail saw it end without a word.
      const error: SocketError = { event: rtcEvents.redial, message: CALL_GIVEN_UP, code: 'call_attempts_exhausted' };
      this.outbox.error(partner, error);
      throw new Refusal(CALL_GIVEN_UP, error.code);
    }
    const redial: CallRedial = { roomId: room.roomId, attempt: attempt + 1 };
    this.attempts.set(room.roomId, redial.attempt);
    this.outbox.redial(socketId, redial);
    this.outbox.redial(partner, redial);
  }
}
