import type { AppDeps } from '../deps.ts';
import { messageRateLimit } from '../realtime/eventRateLimit.ts';
import { createInProcessMatchmaker, whenReady } from './matchmaker.ts';
import { createRedisMatchmaker, lastSearches } from './redisMatchmaker.ts';
import { chatRoutes } from './routes.ts';
import { Searches, type SearchRooms } from './searches.ts';
import { attachChatSockets, socketOutbox } from './socket.ts';
import { topicStats } from './topics.ts';
import { ROOM_TYPES } from '@parley/contract/constants';
import type { RoomType } from '@parley/contract/matchmaking';
import { refusalsCounted } from '../platform/metrics.ts';
import { cachedMatchProfiles, matchProfiles, saveDefaultLanguages } from './matchProfile.ts';
import type { ProfileEventSource } from '../deps.ts';

/** What the chat asks of the areas around it; server.ts wires it. */
export type MatchmakingWiring = {
  /** Users this one blocked or was blocked by (safety/). */
  blocksOf(userId: string): Promise<ReadonlySet<string>>;
  /** Reported by several people and awaiting review (safety/): searches only among such people. */
  inReview(userId: string): Promise<boolean>;
  /** A new account linked to a banned one, until its history is clean (safety/): no video chat. */
  restricted(userId: string): Promise<boolean>;
  /** The attempt of a video room's call, when it was placed again (rtc/). */
  callAttempt(roomId: string): number;
  /** The 1:1 rooms a match opens (rooms/). */
  rooms: SearchRooms;
  /** Profiles edited by their owners (people/): the languages and country matching keeps are read again. */
  profiles: ProfileEventSource;
};

/**
 * The chat area (searches for a stranger, text or video) as server.ts composes it: its HTTP
 * routes, and its socket events on the realtime server. Returns the close step too.
 */
export function createMatchmaking(deps: AppDeps, wiring: MatchmakingWiring) {
  const onError = (err: unknown) => deps.log.error({ err }, 'chat background step failed');
  const topics = topicStats(deps.db, onError);
  // Start, skip and video redials: 5 a second with a burst of 10, per user.
  const control = refusalsCounted('chat-control', messageRateLimit(5, 10));
  const { cluster } = deps;
  // Read once per person, not at every search; an edit on any process is forgotten on all of them.
  const profileCache = cachedMatchProfiles(matchProfiles(deps.searchFacts));
  const saveLanguages = saveDefaultLanguages(deps.db);
  wiring.profiles.on('changed', ({ userId }) => {
    profileCache.forget(userId);
    cluster?.publish('people:profile', userId);
  });
  cluster?.on('people:profile', (userId, from) => {
    if (from !== cluster.instanceId && typeof userId === 'string') profileCache.forget(userId);
  });
  const searches = new Searches({
    rooms: wiring.rooms,
    outbox: socketOutbox(deps.realtime.io),
    // Scaled out, one matcher for every process (chat/redisMatchmaker.ts).
    createMatchmaker: (onMatch) =>
      cluster ? whenReady(createRedisMatchmaker(cluster, onMatch, { onError })) : createInProcessMatchmaker(onMatch),
    ...(cluster ? { home: cluster.instanceId, lastSearches: lastSearches(cluster, onError) } : {}),
    blocksOf: wiring.blocksOf,
    inReview: wiring.inReview,
    restricted: wiring.restricted,
    recordTopics: (userId, t) => topics.record(userId, t),
    profileOf: profileCache.get,
    saveDefaultLanguages: async (userId, languages) => {
      await saveLanguages(userId, languages);
      profileCache.forget(userId);
    },
    callAttempt: wiring.callAttempt,
    onError,
  });
  attachChatSockets(deps.realtime.io, searches, deps.log, (userId) => control.take(userId));
  return {
    routes: chatRoutes(deps, topics),
    /** The search allowance, shared with the video call's redials (each answer goes to two sockets). */
    allowControl: (userId: string) => control.take(userId),
    /** The socket is looking for a partner (it cannot take a held room back meanwhile). */
    isSearching: (socketId: string) => searches.isSearching(socketId),
    /** Searches waiting, by room type, for the metrics. */
    async waiting(): Promise<Record<RoomType, number>> {
      const counts = await Promise.all(ROOM_TYPES.map((t) => searches.waitingCount(t)));
      return Object.fromEntries(ROOM_TYPES.map((t, i) => [t, counts[i]])) as Record<RoomType, number>;
    },
    async close() {
      control.close();
      await searches.close();
      await topics.close();
    },
  };
}
