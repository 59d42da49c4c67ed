import Router from '@koa/router';
import { pageQuerySchema, roomIdSchema, type MessagePage } from '@parley/contract/rooms';
import type { AppDeps, AuthState } from '../deps.ts';
import { messageRateLimit } from '../realtime/eventRateLimit.ts';
import type { Realtime } from '../realtime/server.ts';
import { parse } from '../platform/errors.ts';
import { ablyFanout } from './ablyFanout.ts';
import { RoomCore, type RoomCoreDeps } from './core.ts';
import { attachStoredRoomSockets, roomOps, socketFanout, type RoomOps, type RoomsElsewhere } from './storedSocket.ts';

/** Per person and room: a message a second steady, five at once (chat rooms' usual manners). */
export const ROOM_POST_RATE_PER_S = 1;
export const ROOM_POST_BURST = 5;

/** History pages of a stored room, for its members only. */
function storedRoomRoutes(deps: AppDeps, rooms: () => RoomCore): Router {
  const router = new Router({ prefix: '/rooms' });
  router.get('/:roomId/messages', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const roomId = parse(roomIdSchema, ctx.params.roomId);
    const q = parse(pageQuerySchema, ctx.query);
    const body: MessagePage = await rooms().page(roomId, user.userId, q);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = body;
  });
  return router;
}

/**
 * Stored rooms as server.ts composes them: the routes at once, the sockets once the realtime
 * server exists. The group and direct areas are handed the RoomCore it makes.
 */
export function createStoredRooms(
  deps: AppDeps,
  hooks: Pick<RoomCoreDeps, 'verifiedEmoji' | 'blocksOf' | 'policies'> & { elsewhere?: RoomsElsewhere | undefined } = {},
) {
  const posts = messageRateLimit(ROOM_POST_RATE_PER_S, ROOM_POST_BURST);
  const signals = messageRateLimit(4, 8);
  let rooms: RoomCore | undefined;
  const current = () => {
    if (!rooms) throw new Error('stored rooms are not attached yet');
    return rooms;
  };
  return {
    routes: storedRoomRoutes(deps, current),
    current,
    attach(realtime: Realtime): { rooms: RoomCore; ops: RoomOps } {
      const sockets = socketFanout(realtime.io);
      const apiKey = deps.cfg.ABLY_API_KEY;
      const fanout = apiKey
        ? ablyFanout(sockets, { apiKey, restUrl: deps.cfg.ABLY_REST_URL, kindOf: (roomId) => rooms?.kindOf(roomId), log: deps.log })
        : sockets;
      const { elsewhere, ...policy } = hooks;
      rooms = new RoomCore({ db: deps.db, fanout, allowPost: (key) => posts.take(key), ...policy });
      const allowSignal = (userId: string) => signals.take(userId);
      attachStoredRoomSockets(realtime.io, rooms, deps.log, allowSignal, elsewhere);
      return { rooms, ops: roomOps(rooms, allowSignal) };
    },
    close() {
      posts.close();
      signals.close();
      rooms?.close();
    },
  };
}
