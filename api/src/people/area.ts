import { peopleEvents, type FriendPresence } from '@parley/contract/people';
import { PRESENCE_COALESCE_MS } from '@parley/contract/presence';
import type { AppDeps, LiveEventSource, Notifier, RoomEventSource } from '../deps.ts';
import { typedEvents } from '../rooms/events.ts';
import { accounts } from './account.ts';
import { encounterBook } from './encounters.ts';
import { friendRoutes } from './friendRoutes.ts';
import { friends } from './friends.ts';
import { imageStore } from './images.ts';
import { profileRoutes } from './profileRoutes.ts';
import { areFriends, friendIdsOf } from './friendships.ts';
import { profiles, type Passwords, type PublicThanks } from './profiles.ts';
import { settingsRoutes } from './settingsRoutes.ts';
import { endSignIns } from './signIns.ts';
import { retentionJobs } from '../platform/retention.ts';

export type PeopleNeeds = {
  notifier: Notifier;
  passwords: Passwords;
  /** Devices of a user stop receiving pushes (all, or all but those of the sign-ins kept). */
  unsubscribeDevices(userId: string, keepSids?: string[]): Promise<void>;
  /** Two people became friends (missions reward it, once per pair). */
  friendMade(a: string, b: string): void;
  /** Two people are no longer friends (their direct conversation closes to new messages). */
  friendshipEnded?(a: string, b: string): void;
  /** Donors thanked in public on their profile (billing). */
  thankedInPublic: PublicThanks;
  /** 1:1 rooms: who met whom (recent partners, and where a report may say they met). */
  rooms: RoomEventSource;
  /** Live streams: a viewer's watch that ended is an encounter with its broadcaster. */
  live: LiveEventSource;
};

/** Blocks added or removed on a profile or in settings, as safety follows them. */
export type BlockEvents = {
  /** A block between `a` and `b` was added or removed. */
  changed: { a: string; b: string };
  /** `blocker` blocked `blocked` (after `changed`). */
  added: { blocker: string; blocked: string };
};
/** Profiles edited by their owners, as the areas that keep parts of them follow them. */
export type ProfileEvents = { changed: { userId: string } };
export type ProfileEventSource = { on<K extends keyof ProfileEvents>(name: K, listener: (event: ProfileEvents[K]) => void): void };
export type BlockEventSource = { on<K extends keyof BlockEvents>(name: K, listener: (event: BlockEvents[K]) => void): void };

/** People as server.ts composes them: profiles, friends, recent partners, ratings, settings. */
export function createPeople(deps: AppDeps, needs: PeopleNeeds) {
  const onError = (err: unknown) => deps.log.error({ err }, 'people background step failed');
  const { realtime } = deps;
  const blocks = typedEvents<BlockEvents>();
  const profileEvents = typedEvents<ProfileEvents>();
  const profileBook = profiles(deps.db, needs.passwords, needs.thankedInPublic, (userId) => profileEvents.emit('changed', { userId }));
  const images = imageStore(deps.db);
  const encounters = encounterBook(deps.db, onError);
  const accountBook = accounts(deps.db, {
    blocksChanged: (a, b) => blocks.emit('changed', { a, b }),
    blocked: (blocker, blocked) => blocks.emit('added', { blocker, blocked }),
  });
  const friendBook = friends(deps.db, {
    notify: (userId, notice) => needs.notifier.notify(userId, notice),
    toUser: (userId, event, payload) => realtime.toUser(userId, event, payload),
    isOnline: async (userId) => realtime.presence.isOnline(userId),
    befriended: (a, b) => needs.friendMade(a, b),
    unfriended: (a, b) => needs.friendshipEnded?.(a, b),
    encountersWritten: () => encounters.written(),
  });
  const endAllSignIns = async (userId: string, reason: string) => {
    await endSignIns(deps, userId, reason);
    deps.revocations.revokeUser(userId);
    await realtime.endSession(userId, reason);
    await needs.unsubscribeDevices(userId);
  };
  const routes = [
    profileRoutes(deps, profileBook, images),
    friendRoutes(deps, friendBook, encounters),
    settingsRoutes(deps, accountBook, profileBook, { endAllSignIns }),
  ];
  const retention = retentionJobs(
    [
      { name: 'encounters', run: () => encounters.sweep() },
      { name: 'reserved_usernames', run: () => accountBook.sweep() },
    ],
    deps.log,
  );
  needs.rooms.on('matched', encounters.matched);
  needs.live.on('watchEnded', (watch) => encounters.watched(watch));
  // Friends hear when someone comes online or leaves. Comings and goings of one beat share one
  // friends lookup: a query each was most of a busy minute's database work (hundreds connecting a second).
  let presenceTimer: NodeJS.Timeout | undefined;
  let beat = new Map<string, boolean>();
  // Closing, the sockets' own disconnects still report presence: nobody is told any more (the
  // Redis connection an emit would publish on is closing too).
  let closing = false;
  const flush = () => {
    presenceTimer = undefined;
    const changes = beat;
    beat = new Map();
    void friendIdsOf(deps.db, [...changes.keys()])
      .then((friendsOfEach) => {
        if (closing) return;
        for (const [userId, online] of changes) {
          const change: FriendPresence = { userId, online };
          for (const f of friendsOfEach.get(userId) ?? []) realtime.toUser(f, peopleEvents.friendPresence, change);
        }
      })
      .catch(onError);
  };
  realtime.onPresence((userId, online) => {
    if (closing) return;
    beat.set(userId, online);
    presenceTimer ??= setTimeout(flush, PRESENCE_COALESCE_MS);
  });

  return {
    routes,
    /** Blocks added or removed on a profile or in settings (safety follows them). */
    blocks: { on: blocks.on } satisfies BlockEventSource,
    /** Profiles edited by their owners (matchmaking keeps their languages and country). */
    profiles: { on: profileEvents.on } satisfies ProfileEventSource,
    /** Whether someone met another in a 1:1 chat, or watched their stream, within ENCOUNTER_KEEP_DAYS (reports weigh it). */
    met: (userId: string, partnerId: string, place: 'chat' | 'live') => encounters.met(userId, partnerId, place),
    /** Runs the area's retention jobs now. */
    sweep: () => retention.runNow(),
    /** Whether two users are friends. */
    areFriends: (a: string, b: string) => areFriends(deps.db, a, b),
    /** Whether two users were the members of a 1:1 room of this kind (reports about a chat must name one). */
    metIn: encounters.metIn,
    close: async () => {
      closing = true;
      await retention.close();
      clearTimeout(presenceTimer);
      await encounters.written();
    },
  };
}
