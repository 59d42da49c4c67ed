import type { AppDeps } from '../deps.ts';
import { messageRateLimit } from '../realtime/eventRateLimit.ts';
import type { Realtime } from '../realtime/server.ts';
import { createInProcessMatchmaker, whenReady } from './matchmaker.ts';
import { createRedisMatchmaker, lastSearches } from './redisMatchmaker.ts';
import { chatRoutes } from './routes.ts';
import { Searches, type SearchRooms } from './searches.ts';
import { attachChatSockets, socketOutbox } from './socket.ts';
import { topicStats } from './topics.ts';

/** What the chat asks of the areas around it; server.ts wires it. */
export type ChatWiring = {
  /** Users this one blocked or was blocked by (safety/). */
  blocksOf(userId: string): Promise<ReadonlySet<string>>;
  /** Reported by several people and awaiting review (safety/): searches only among such people. */
  inReview(userId: string): Promise<boolean>;
  /** A new account linked to a banned one, until its history is clean (safety/): no video chat. */
  restricted(userId: string): Promise<boolean>;
  /** The attempt of a video room's call, when it was placed again (rtc/). */
  callAttempt(roomId: string): number;
};

/**
 * The chat area (searches for a stranger, text or video) as server.ts composes it: its HTTP
 * routes first, then `attach` once the realtime server and the rooms exist. Returns the close step.
 */
export function createChat(deps: AppDeps, wiring: ChatWiring) {
  const onError = (err: unknown) => deps.log.error({ err }, 'chat background step failed');
  const topics = topicStats(deps.db, onError);
  // Start, skip and video redials: 5 a second with a burst of 10, per user.
  const control = messageRateLimit(5, 10);
  let searches: Searches | undefined;
  return {
    routes: chatRoutes(deps, topics),
    /** The search allowance, shared with the video call's redials (each answer goes to two sockets). */
    allowControl: (userId: string) => control.take(userId),
    /** The socket is looking for a partner (it cannot take a held room back meanwhile). */
    isSearching: (socketId: string) => searches?.isSearching(socketId) ?? false,
    attach(realtime: Realtime, rooms: SearchRooms) {
      searches = new Searches({
        rooms,
        outbox: socketOutbox(realtime.io),
        // Scaled out, one matcher for every process (chat/redisMatchmaker.ts).
        createMatchmaker: (onMatch) => {
          const cluster = deps.cluster;
          return cluster ? whenReady(createRedisMatchmaker(cluster, onMatch, { onError })) : createInProcessMatchmaker(onMatch);
        },
        ...(deps.cluster ? { home: deps.cluster.instanceId, lastSearches: lastSearches(deps.cluster, onError) } : {}),
        blocksOf: wiring.blocksOf,
        inReview: wiring.inReview,
        restricted: wiring.restricted,
        recordTopics: (userId, t) => topics.record(userId, t),
        callAttempt: wiring.callAttempt,
        onError,
      });
      attachChatSockets(realtime.io, searches, deps.log, (userId) => control.take(userId));
    },
    async close() {
      control.close();
      await searches?.close();
      await topics.close();
    },
  };
}
