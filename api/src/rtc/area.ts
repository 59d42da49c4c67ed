import type { AppDeps } from '../deps.ts';
import type { Realtime } from '../realtime/server.ts';
import { VideoCalls, type CallRooms } from './calls.ts';
import { createVideoRoomPairing, memorySeats, redisSeats } from './pairing.ts';
import { rtcRoutes } from './routes.ts';
import { attachCallSockets, socketOutbox } from './socket.ts';

/** What the WebRTC area asks of the areas around it; server.ts wires it. */
export type RtcWiring = {
  /** A redial ask takes from the same allowance as a search (chat/). */
  allowRedial(userId: string): boolean;
};

/**
 * The WebRTC area as server.ts composes it: routes first, `attach` once the realtime server and
 * the rooms exist. It follows the rooms' events: who sits in which video room, and each call's attempt.
 */
export function createRtc(deps: AppDeps, wiring: RtcWiring) {
  const seats = deps.redis ? redisSeats(deps.redis, deps.cfg.REDIS_KEY_PREFIX) : memorySeats();
  const pairing = createVideoRoomPairing(seats, (err) => deps.log.error({ err }, 'video room pairing step failed'));
  let calls: VideoCalls | undefined;
  return {
    routes: rtcRoutes(deps, pairing),
    /** The attempt of a video room's call under way (0 unless it was placed again). */
    callAttempt: (roomId: string) => calls?.attemptOf(roomId) ?? 0,
    attach(realtime: Realtime, rooms: CallRooms) {
      pairing.follow(rooms);
      calls = new VideoCalls(rooms, socketOutbox(realtime.io));
      attachCallSockets(realtime.io, calls, deps.log, wiring.allowRedial);
    },
  };
}
