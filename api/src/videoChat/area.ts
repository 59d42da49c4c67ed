import type { AppDeps } from '../deps.ts';
import { VideoCalls, type CallRooms } from './calls.ts';
import { createVideoRoomPairing, memorySeats, redisSeats } from './pairing.ts';
import { rtcRoutes } from './routes.ts';
import { attachCallSockets, socketOutbox } from './socket.ts';

/** What the WebRTC area asks of the areas around it; server.ts wires it. */
export type VideoChatWiring = {
  /** A redial ask takes from the same allowance as a search (chat/). */
  allowRedial(userId: string): boolean;
  /** The 1:1 rooms whose video calls this area places (rooms/). */
  rooms: CallRooms;
};

/**
 * The WebRTC area as server.ts composes it: routes, and its socket events on the realtime server.
 * It follows the rooms' events: who sits in which video room, and each call's attempt.
 */
export function createVideoChat(deps: AppDeps, wiring: VideoChatWiring) {
  const seats = deps.redis ? redisSeats(deps.redis, deps.cfg.REDIS_KEY_PREFIX) : memorySeats();
  const pairing = createVideoRoomPairing(seats, (err) => deps.log.error({ err }, 'video room pairing step failed'));
  pairing.follow(wiring.rooms);
  const calls = new VideoCalls(wiring.rooms, socketOutbox(deps.realtime.io));
  attachCallSockets(deps.realtime.io, calls, deps.log, wiring.allowRedial);
  return {
    routes: rtcRoutes(deps, pairing),
    /** The attempt of a video room's call under way (0 unless it was placed again). */
    callAttempt: (roomId: string) => calls.attemptOf(roomId),
  };
}
