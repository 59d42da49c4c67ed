import type { AppDeps } from '../deps.ts';
import type { AppIo } from '../realtime/server.ts';
import { createVideoRoomPairing } from './pairing.ts';
import { rtcRoutes } from './routes.ts';

/** The WebRTC area as server.ts composes it: routes first, `attach` once the realtime server exists. */
export function createRtc(deps: AppDeps) {
  const pairing = createVideoRoomPairing();
  return {
    routes: rtcRoutes(deps, pairing),
    attach(realtime: { io: AppIo }) {
      pairing.attach(realtime.io);
    },
  };
}
