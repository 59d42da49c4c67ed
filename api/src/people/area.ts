import { peopleEvents, type FriendPresence } from '@parley/contract/people';
import { PRESENCE_COALESCE_MS } from '@parley/contract/presence';
import type { AppDeps, Notifier, RoomEventSource } from '../deps.ts';
import type { Realtime } from '../realtime/server.ts';
import { accounts } from './account.ts';
import { encounterBook } from './encounters.ts';
import { friendRoutes } from './friendRoutes.ts';
import { friends } from './friends.ts';
import { imageStore } from './images.ts';
import { profileRoutes } from './profileRoutes.ts';
import { friendIdsOf } from './friendships.ts';
import { profiles, type Passwords, type PublicThanks } from './profiles.ts';
import { settingsRoutes } from './settingsRoutes.ts';
import { endSignIns } from './signIns.ts';

const SWEEP_MS = 60 * 60_000;

export type PeopleNeeds = {
  notifier: Notifier;
  passwords: Passwords;
  /** A block was added or removed between two users: matching must hear of it now. */
  blocksChanged(a: string, b: string): void;
  /** `blocker` blocked `blocked`: conversations between them close now (safety). */
  blocked?(blocker: string, blocked: string): void;
  /** Devices of a user stop receiving pushes (all, or all but those of the sign-ins kept). */
  unsubscribeDevices(userId: string, keepSids?: string[]): Promise<void>;
  /** Two people became friends (missions reward it, once per pair). */
  friendMade?(a: string, b: string): void;
  /** Two people are no longer friends (their direct conversation closes to new messages). */
  friendshipEnded?(a: string, b: string): void;
  /** Donors thanked in public on their profile (billing). */
  thankedInPublic?: PublicThanks;
};

/** People as server.ts composes them: profiles, friends, recent partners, ratings, settings. */
export function createPeople(deps: AppDeps, needs: PeopleNeeds) {
  const onError = (err: unknown) => deps.log.error({ err }, 'people background step failed');
  let realtime: Pick<Realtime, 'toUser' | 'presence'> | undefined;
  const profileBook = profiles(deps.db, needs.passwords, needs.thankedInPublic);
  const images = imageStore(deps.db);
  const encounters = encounterBook(deps.db, onError);
  const accountBook = accounts(deps.db, { blocksChanged: needs.blocksChanged, blocked: needs.blocked });
  const friendBook = friends(deps.db, {
    notify: (userId, notice) => needs.notifier.notify(userId, notice),
    toUser: (userId, event, payload) => realtime?.toUser(userId, event, payload),
    isOnline: async (userId) => (realtime ? realtime.presence.isOnline(userId) : false),
    befriended: (a, b) => needs.friendMade?.(a, b),
    unfriended: (a, b) => needs.friendshipEnded?.(a, b),
    encountersWritten: () => encounters.written(),
  });
  const endAllSignIns = async (userId: string, reason: string) => {
    await endSignIns(deps, userId, reason);
    deps.revocations.revokeUser(userId);
    await deps.realtime?.endSession(userId, reason);
    await needs.unsubscribeDevices(userId);
  };
  const routes = [
    profileRoutes(deps, profileBook, images, {
      endOtherSignIns: async (userId, sid) => {
        await endSignIns(deps, userId, 'password_changed', sid);
        await needs.unsubscribeDevices(userId, sid ? [sid] : []);
      },
    }),
    friendRoutes(deps, friendBook, encounters),
    settingsRoutes(deps, accountBook, profileBook, { endAllSignIns }),
  ];
  const sweep = () => void Promise.all([encounters.sweep(), accountBook.sweep()]).catch(onError);
  const sweeper = setInterval(sweep, SWEEP_MS);
  sweeper.unref();
  let presenceTimer: NodeJS.Timeout | undefined;

  return {
    routes,
    /** Follows 1:1 rooms (recent partners) and tells friends when someone comes online or leaves. */
    attach(rt: Pick<Realtime, 'toUser' | 'presence' | 'onPresence'>, rooms: RoomEventSource) {
      realtime = rt;
      rooms.on('matched', encounters.matched);
      // Comings and goings of one beat share one friends lookup: a query each was most of a busy
      // minute's database work (hundreds of people connecting a second).
      let beat = new Map<string, boolean>();
      const flush = () => {
        presenceTimer = undefined;
        const changes = beat;
        beat = new Map();
        void friendIdsOf(deps.db, [...changes.keys()])
          .then((friendsOfEach) => {
            for (const [userId, online] of changes) {
              const change: FriendPresence = { userId, online };
              for (const f of friendsOfEach.get(userId) ?? []) rt.toUser(f, peopleEvents.friendPresence, change);
            }
          })
          .catch(onError);
      };
      rt.onPresence((userId, online) => {
        beat.set(userId, online);
        presenceTimer ??= setTimeout(flush, PRESENCE_COALESCE_MS);
      });
    },
    /** Whether someone met another in a 1:1 chat, or watched their stream, within ENCOUNTER_KEEP_DAYS (reports weigh it). */
    met: (userId: string, partnerId: string, place: 'chat' | 'live') => encounters.met(userId, partnerId, place),
    /** A viewer's watch of a stream ended: remembered as an encounter with its broadcaster. */
    watched: (e: { streamId: string; viewerId: string; broadcasterId: string }) => encounters.watched(e),
    sweep,
    /** Whether two users were the members of a 1:1 room of this kind (reports about a chat must name one). */
    metIn: encounters.metIn,
    close: async () => {
      clearInterval(sweeper);
      clearTimeout(presenceTimer);
      await encounters.written();
    },
  };
}
