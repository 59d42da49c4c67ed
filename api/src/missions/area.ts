import { missionEvents, type MissionEventKind, type MissionProgressed } from '@parley/contract/missions';
import type { AppDeps, LiveEventSource, Notifier, RoomEventSource, StoredRoomEventSource } from '../deps.ts';
import { words } from '../platform/i18n/i18n.ts';
import { missionRoutes } from './routes.ts';
import { missionService } from './service.ts';
import { missionStore } from './store.ts';

/** How often each process looks for streak reminders that are due. */
export const LEVEL_UP = /*i18n*/ { id: 'notice.levelUp', message: 'You reached level {level} and earned gold.' };
const STREAK_REMINDER = /*i18n*/ { id: 'notice.streakReminder', message: 'Visit today to keep your daily streak going.' };
const REMINDER_SWEEP_MS = 10 * 60_000;
const ONE_TO_ONE = new Set(['textChat', 'videoChat']);

/**
 * Event kinds with a source on this server (quests of other kinds are never drawn): 1:1 chats,
 * daily visits, friends made, group replies and live streams.
 */
const LIVE_SOURCES: readonly MissionEventKind[] = [
  'chatAnswered',
  'chatMinute',
  'dailyVisit',
  'friendMade',
  'groupMessageAnswered',
  'liveMinutes',
];

/** What missions ask of the areas around them; server.ts wires it. */
export type MissionWiring = {
  /** Streak reminders and level-ups reach their person in the app and by Web Push. */
  notifier: Notifier;
  /** Whether it is the user's quiet hours now (their notification settings): no streak reminder then. */
  quiet(userId: string, at: Date): Promise<boolean>;
  /** Where progress is seen: 1:1 chats that ended, group messages answered, time in live streams. */
  sources: { chats: RoomEventSource; storedRooms: StoredRoomEventSource; live: LiveEventSource };
};

/** A stretch of time in a live stream, as the live area reports it. */
export type LiveTime = { roomId: string; userId: string; role: 'viewer' | 'broadcaster'; from: number; to: number };

/** A 1:1 room that ended, as missions follow it: who was in it, who spoke, when it opened. */
export type EndedChat = { roomId: string; kind: string; userIds: string[]; spoke: string[]; openedAt: number };

/** Missions as server.ts composes them: routes, the one `record` entry point, and the sources they follow. */
export function createMissions(deps: AppDeps, wiring: MissionWiring) {
  const onError = (err: unknown) => deps.log.error({ err }, 'missions background step failed');
  const { notifier } = wiring;
  const missions = missionService({
    store: missionStore(deps.db),
    liveSources: new Set(LIVE_SOURCES),
    progressed(userId, levelUp) {
      const payload: MissionProgressed = levelUp === undefined ? {} : { levelUp };
      deps.realtime.toUser(userId, missionEvents.progressed, payload);
      if (levelUp !== undefined)
        void notifier
          .notify(userId, { kind: 'levelUp', words: words(LEVEL_UP, { level: levelUp }), link: '/missions' })
          .catch((err: unknown) => deps.log.warn({ err }, 'level-up notification failed'));
    },
    quiet: wiring.quiet,
  });
  const remind = (userId: string) =>
    void notifier
      .notify(userId, {
        kind: 'missionReminder',
        words: words(STREAK_REMINDER),
        link: '/missions',
        coalesceKey: 'streak',
      })
      .catch((err: unknown) => deps.log.warn({ err }, 'streak reminder failed'));
  const sweep = setInterval(
    () =>
      void missions
        .dueReminders()
        .then((userIds) => userIds.forEach(remind))
        .catch(onError),
    REMINDER_SWEEP_MS,
  );
  sweep.unref();
  const minChatMs = deps.cfg.MISSION_MIN_CHAT_SECONDS * 1000;
  // Nobody waits on a reward; the service writes what arrives together in one transaction (a wave
  // of chats ending is one write, not one each).
  const { record } = missions;

  /**
   * A room ended: a 1:1 chat in which both people spoke is a chat the partner answered, and a
   * chat of a minute when it lasted MISSION_MIN_CHAT_SECONDS.
   */
  wiring.sources.chats.on('ended', (e: EndedChat) => {
    if (!ONE_TO_ONE.has(e.kind) || e.userIds.length !== 2 || !e.userIds.every((id) => e.spoke.includes(id))) return;
    const long = Date.now() - e.openedAt >= minChatMs;
    for (const userId of e.userIds) {
      record(userId, { kind: 'chatAnswered', key: e.roomId }).catch(onError);
      if (long) record(userId, { kind: 'chatMinute', key: e.roomId }).catch(onError);
    }
  });
  // A group message got a reply or a reaction: its author is rewarded once per message.
  wiring.sources.storedRooms.on('answered', (e) =>
    record(e.authorId, { kind: 'groupMessageAnswered', key: `${e.roomId}:${e.messageId}` }).catch(onError),
  );
  /**
   * Time in a live stream: its whole minutes, once per stretch (keyed by who, which stream, which
   * role and when it began), so a repeated report adds nothing.
   */
  wiring.sources.live.on('sessionEnded', (t: LiveTime) => {
    const minutes = Math.floor((t.to - t.from) / 60_000);
    if (minutes < 1) return;
    record(t.userId, { kind: 'liveMinutes', key: `${t.roomId}:${t.role}:${t.from}`, amount: minutes }).catch(onError);
  });

  return {
    routes: missionRoutes(deps, missions),
    /** Records a progress event seen by the server, once per key (see ProgressEvent). */
    record,
    /** Two people became friends: both are rewarded, once per pair (a friendship made again after an unfriend earns nothing more). */
    friendMade(a: string, b: string) {
      const pair = a < b ? `${a}:${b}` : `${b}:${a}`;
      for (const id of [a, b])
        void record(id, { kind: 'friendMade', key: pair }).catch((err: unknown) => deps.log.warn({ err }, 'friend mission failed'));
    },
    service: missions,
    async close() {
      clearInterval(sweep);
      await missions.flushed();
    },
  };
}
