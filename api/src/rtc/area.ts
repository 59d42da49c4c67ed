import type { AppDeps } from '../deps.ts';
import type { AppIo } from '../realtime/server.ts';
import { createVideoRoomPairing, memorySeats, redisSeats } from './pairing.ts';
import { rtcRoutes } from './routes.ts';

/** The WebRTC area as server.ts composes it: routes first, `attach` once the realtime server exists. */
export function createRtc(deps: AppDeps) {
  const seats = deps.redis ? redisSeats(deps.redis, deps.cfg.REDIS_KEY_PREFIX) : memorySeats();
  const pairing = createVideoRoomPairing(seats, (err) => deps.log.error({ err }, 'video room pairing step failed'));
  return {
    routes: rtcRoutes(deps, pairing),
    attach(realtime: { io: AppIo }) {
      pairing.attach(realtime.io);
    },
    /** A video room taken back on a new socket after a dropped connection: that socket has its seat again. */
    roomResumed(r: { socketId: string; roomId: string; roomType: string; userId: string; partnerId: string }) {
      if (r.roomType === 'videoChat') pairing.seat(r.roomId, r.socketId, { userId: r.userId, partnerId: r.partnerId });
    },
  };
}
