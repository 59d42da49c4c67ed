import Router from '@koa/router';
import { pageQuerySchema, roomIdSchema, type MessagePage } from '@parley/contract/storedRooms';
import type { AppDeps, AuthState } from '../deps.ts';
import { messageRateLimit } from '../realtime/eventRateLimit.ts';
import type { Realtime } from '../realtime/server.ts';
import { parse } from '../platform/errors.ts';
import { ablyFanout } from './ablyFanout.ts';
import { StoredRooms, type AccessChange, type StoredRoomsDeps } from './storedRooms.ts';
import { attachStoredRoomSockets, socketFanout } from './storedSocket.ts';

/** Per person and room: a message a second steady, five at once (chat rooms' usual manners). */
export const ROOM_POST_RATE_PER_S = 1;
export const ROOM_POST_BURST = 5;

/** History pages of a stored room, for its members only. */
function storedRoomRoutes(deps: AppDeps, rooms: () => StoredRooms): Router {
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
 * server exists. The group and direct areas are handed the StoredRooms it makes.
 */
export function createStoredRooms(deps: AppDeps, hooks: Pick<StoredRoomsDeps, 'verifiedEmoji' | 'blocksOf'> = {}) {
  const posts = messageRateLimit(ROOM_POST_RATE_PER_S, ROOM_POST_BURST);
  const signals = messageRateLimit(4, 8);
  let rooms: StoredRooms | undefined;
  const current = () => {
    if (!rooms) throw new Error('stored rooms are not attached yet');
    return rooms;
  };
  return {
    routes: storedRoomRoutes(deps, current),
    current,
    attach(realtime: Realtime): StoredRooms {
      const sockets = socketFanout(realtime.io);
      const apiKey = deps.cfg.ABLY_API_KEY;
      const fanout = apiKey
        ? ablyFanout(sockets, { apiKey, restUrl: deps.cfg.ABLY_REST_URL, kindOf: (roomId) => rooms?.kindOf(roomId), log: deps.log })
        : sockets;
      const cluster = deps.cluster;
      // Posting caches who may post: a change made on one server is forgotten on all of them.
      const accessBus: StoredRoomsDeps['accessBus'] = cluster && {
        publish: (change) => cluster.publish('stored:access', change),
        subscribe: (forget) =>
          cluster.on('stored:access', (change, from) => {
            if (from !== cluster.instanceId) forget(change as AccessChange);
          }),
      };
      rooms = new StoredRooms({ db: deps.db, fanout, allowPost: (key) => posts.take(key), accessBus, ...hooks });
      attachStoredRoomSockets(realtime.io, rooms, deps.log, (userId) => signals.take(userId));
      return rooms;
    },
    close() {
      posts.close();
      signals.close();
      rooms?.close();
    },
  };
}
