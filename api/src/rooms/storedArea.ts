import Router from '@koa/router';
import { pageQuerySchema, roomIdSchema, type MessagePage } from '@parley/contract/rooms';
import { searchQuerySchema, type SearchPage } from '@parley/contract/search';
import { takeOrRefuse, type Limiter } from '../platform/rateLimit.ts';
import { messageSearch } from './search.ts';
import type { AppDeps, AuthState } from '../deps.ts';
import { messageRateLimit } from '../realtime/eventRateLimit.ts';
import { parse } from '../platform/errors.ts';
import { ablyFanout } from './ablyFanout.ts';
import { RoomCore, type AccessChange, type RoomCoreDeps } from './core.ts';
import { attachStoredRoomSockets, roomOps, socketFanout, type RoomAllowances, type RoomsElsewhere } from './storedSocket.ts';
import { MODERATION_PER_MINUTE, roomModeration } from './moderation.ts';
import { refusalsCounted } from '../platform/metrics.ts';
import { attachmentRoutes } from './attachmentRoutes.ts';

/** Per person and room: a message a second steady, five at once (chat rooms' usual manners). */
export const ROOM_POST_RATE_PER_S = 1;
export const ROOM_POST_BURST = 5;

/** Searches a person may run a minute: each is a full-text query over all their rooms. */
export const SEARCHES_PER_MINUTE = 30;

/** 1,000 posts a second on one core: about 4 ms of posts a statement rather than 2 (bench/README.md, direct messages). */
const EMBEDDED_POSTS_GATHER = { ms: 4, items: 16 };

/** History pages of a stored room and its attachments, for its members only, and search over the rooms a person is in. */
function storedRoomRoutes(deps: AppDeps, rooms: () => RoomCore, searches: Limiter, chatsElsewhere?: RoomsElsewhere): Router {
  const router = new Router({ prefix: '/rooms' });
  const search = messageSearch(deps.db);
  router.get('/search', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const q = parse(searchQuerySchema, ctx.query);
    await takeOrRefuse(searches, user.userId, 'Too many searches. Wait a moment and try again.');
    const body: SearchPage = await search.search(user.userId, q);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = body;
  });
  router.get('/:roomId/messages', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const roomId = parse(roomIdSchema, ctx.params.roomId);
    const q = parse(pageQuerySchema, ctx.query);
    const body: MessagePage = await rooms().page(roomId, user.userId, q);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = body;
  });
  attachmentRoutes(router, deps, rooms, chatsElsewhere);
  return router;
}

/** Room joins and thread opens a user may make a second, and at once (reconnecting rejoins every open room). */
export const ROOM_OPENS_PER_S = 5;
export const ROOM_OPENS_BURST = 30;

/**
 * Stored rooms as server.ts composes them: the core, its routes, and its socket events on the
 * realtime server. The group and direct areas are handed the RoomCore it makes; its events go to
 * the source server.ts made for their followers.
 */
export function createStoredRooms(
  deps: AppDeps,
  hooks: Pick<RoomCoreDeps, 'verifiedEmoji' | 'media' | 'blocksOf' | 'policies'> & {
    events: NonNullable<RoomCoreDeps['events']>;
    elsewhere?: RoomsElsewhere | undefined;
    /** 1:1 chats another process holds (scaled out): their pictures' HTTP checks run there. */
    chatsElsewhere?: RoomsElsewhere | undefined;
  },
) {
  const posts = refusalsCounted('room-posts', messageRateLimit(ROOM_POST_RATE_PER_S, ROOM_POST_BURST));
  const signals = refusalsCounted('room-signals', messageRateLimit(4, 8));
  // Joins and thread opens read history: a person opening rooms quickly stays well inside it.
  const opens = refusalsCounted('room-opens', messageRateLimit(ROOM_OPENS_PER_S, ROOM_OPENS_BURST));
  const sockets = socketFanout(deps.realtime.io);
  const apiKey = deps.cfg.ABLY_API_KEY;
  const fanout = apiKey
    ? ablyFanout(sockets, { apiKey, restUrl: deps.cfg.ABLY_REST_URL, kindOf: (roomId) => rooms.kindOf(roomId), log: deps.log })
    : sockets;
  const { elsewhere, chatsElsewhere, ...policy } = hooks;
  const cluster = deps.cluster;
  // Posting caches who may post: a change made on one server is forgotten on all of them.
  const accessBus: RoomCoreDeps['accessBus'] = cluster && {
    publish: (change) => cluster.publish('stored:access', change),
    subscribe: (forget) =>
      cluster.on('stored:access', (change, from) => {
        if (from !== cluster.instanceId) forget(change as AccessChange);
      }),
  };
  const rooms: RoomCore = new RoomCore({
    db: deps.db,
    fanout,
    allowPost: (key) => posts.take(key),
    accessBus,
    // The embedded database runs on this process's core: under load its posts leave in fewer, larger statements.
    postsGather: deps.dbKind === 'pglite' ? EMBEDDED_POSTS_GATHER : undefined,
    ...policy,
  });
  const allow: RoomAllowances = { signal: (userId) => signals.take(userId), open: (userId) => opens.take(userId) };
  const moderation = roomModeration(
    deps.db,
    () => rooms,
    deps.limiters.create({ keyPrefix: 'room-moderate', points: MODERATION_PER_MINUTE, durationSeconds: 60 }),
  );
  attachStoredRoomSockets(deps.realtime.io, rooms, deps.log, allow, moderation, elsewhere);
  return {
    routes: storedRoomRoutes(
      deps,
      () => rooms,
      deps.limiters.create({ keyPrefix: 'message-search', points: SEARCHES_PER_MINUTE, durationSeconds: 60 }),
      chatsElsewhere,
    ),
    rooms,
    /** Moderation of every kind that has it (the group settings page asks for it over HTTP too). */
    moderation,
    /** The core with its socket operations and its moderation, for a kind that runs its chat on it (live). */
    chat: { rooms, ops: roomOps(rooms, allow, moderation), moderation },
    async close() {
      posts.close();
      signals.close();
      opens.close();
      await rooms.close();
    },
  };
}
