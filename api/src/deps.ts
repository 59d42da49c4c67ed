import type { Config } from './platform/config.ts';
import type { Logger } from './platform/logger.ts';
import type { Db } from './db/client.ts';
import type { SearchFacts } from './db/accounts.ts';
import type { Lane } from './platform/lane.ts';
import type { Secrets } from './platform/secrets.ts';
import type { AccessTokens } from './auth/tokens.ts';
import type { RateLimiters } from './platform/rateLimit.ts';
import type { Redis } from './platform/redis.ts';
import type { Cluster } from './realtime/cluster.ts';
import type { Realtime } from './realtime/server.ts';
import type { Revocations } from './auth/revocations.ts';
import type { Middleware } from 'koa';
import type { TokenUser } from '@parley/contract/auth';

/** The platform every area stands on, made before the realtime server (which is built on it). */
export type PlatformDeps = {
  cfg: Config;
  log: Logger;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  /** Writes that can wait (rewards, counters of what the server saw) take turns here with requests. */
  background: Lane;
  /** An account's languages, country and restriction, as searches read them (db/accounts.ts: one statement per turn for all areas). */
  searchFacts: (userId: string) => Promise<SearchFacts | undefined>;
  secrets: Secrets;
  /** Verifies access tokens, refusing those of ended sign-ins and banned accounts. */
  tokens: AccessTokens;
  revocations: Pick<Revocations, 'revokeSignIn' | 'revokeUser'>;
  limiters: RateLimiters;
  /** Present when REDIS_URL is set (scaled out). */
  redis?: Redis | undefined;
  /** Present with REDIS_URL: this process among the others sharing that Redis (realtime/cluster.ts). */
  cluster?: Cluster | undefined;
  version: string;
  /** Koa middleware of routes for signed-in users only (auth/): 401 without a valid access token, else `ctx.state` is an AuthState. */
  requireUser: Middleware;
  /** The user of a request whose access token is optional: null without a valid one. */
  optionalUser(authorization: string | undefined): Promise<TokenUser | null>;
};

/**
 * What every business area is given by server.ts; nothing reaches across areas otherwise. The
 * realtime server exists before any area, so each area registers its socket events as it is built.
 */
export type AppDeps = PlatformDeps & {
  /** socket.io and presence; also ends sockets on purpose (a user's on a ban, a sign-in's on sign-out). */
  realtime: Realtime;
};

export type { AuthState } from './auth/requireUser.ts';
// Room events are how areas follow rooms (api/src/rooms); server.ts hands each area the rooms.
export type { RoomEventSource, RoomEvents, RoomMember } from './rooms/events.ts';
// Stored rooms (group and direct) are one core in rooms/; the group and direct areas are handed it.
export type { RoomCore } from './rooms/core.ts';
export type { StoredRoomEvents, StoredRoomEventSource } from './rooms/events.ts';
// Any area may notify a user through the Notifier server.ts hands it.
export type { Notifier, Notice, Delivery } from './notifications/notifier.ts';
// What live streams tell the areas that follow them (missions count the time, people remember the watch).
export type { LiveEvents, LiveEventSource } from './live/area.ts';
// A block added or removed on a profile (people/), as safety follows it.
export type { BlockEvents, BlockEventSource, ProfileEvents, ProfileEventSource } from './people/area.ts';
// Reports read group, direct and live messages from the server's own copy through this (safety/).
export type { HeldEvidence, HeldMessage, HeldEvidenceSources } from './safety/heldEvidence.ts';
// A report weighs only if its reporter had met the person: the areas that know where people meet answer this.
export type { EncounterSources } from './safety/encounters.ts';
