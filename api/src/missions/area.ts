import { missionEvents, type MissionEventKind, type MissionProgressed } from '@parley/contract/missions';
import type { AppDeps } from '../deps.ts';
import { missionRoutes } from './routes.ts';
import { missionService, type ProgressEvent } from './service.ts';
import { missionStore } from './store.ts';

/** How often each process looks for streak reminders that are due. */
const REMINDER_SWEEP_MS = 10 * 60_000;
const ONE_TO_ONE = new Set(['textChat', 'videoChat']);

export type MissionHooks = {
  /** Event kinds with a source on this server; quests of other kinds are never drawn. */
  liveSources: readonly MissionEventKind[];
  /**
   * Sends a due streak reminder. In-app by default (a socket event); with notifications, the
   * Notifier (in-app and Web Push) takes this place.
   */
  remind?(userId: string): void;
  /** A user reached a new level (after the commit): the Notifier tells them in the app and by push. */
  levelUp?(userId: string, level: number): void;
  /** Whether it is the user's quiet hours now (their notification settings): no streak reminder then. */
  quiet?(userId: string, at: Date): Promise<boolean>;
};

/** A stretch of time in a live stream, as the live area reports it. */
export type LiveTime = { roomId: string; userId: string; role: 'viewer' | 'broadcaster'; from: number; to: number };

/** A 1:1 room that ended, as missions follow it: who was in it, who spoke, when it opened. */
export type EndedChat = { roomId: string; kind: string; userIds: string[]; spoke: string[]; openedAt: number };

/** Missions as server.ts composes them: routes, the one `record` entry point, and the chat's room events. */
export function createMissions(deps: AppDeps, hooks: MissionHooks) {
  const onError = (err: unknown) => deps.log.error({ err }, 'missions background step failed');
  const missions = missionService({
    store: missionStore(deps.db),
    liveSources: new Set(hooks.liveSources),
    progressed(userId, levelUp) {
      const payload: MissionProgressed = levelUp === undefined ? {} : { levelUp };
      deps.realtime?.toUser(userId, missionEvents.progressed, payload);
      if (levelUp !== undefined) hooks.levelUp?.(userId, levelUp);
    },
    ...(hooks.quiet && { quiet: hooks.quiet }),
  });
  const remind = hooks.remind ?? ((userId: string) => deps.realtime?.toUser(userId, missionEvents.reminder, {}));
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
  const record = (userId: string, e: ProgressEvent) => missions.record(userId, e);
  // What the server saw is rewarded when the database has a moment: nobody waits on it.
  const recordLater = (userId: string, e: ProgressEvent) => deps.background.run(() => record(userId, e));

  return {
    routes: missionRoutes(deps, missions),
    /** Records a progress event seen by the server, once per key (see ProgressEvent). */
    record,
    /**
     * A room ended: a 1:1 chat in which both people spoke is a chat the partner answered, and a
     * chat of a minute when it lasted MISSION_MIN_CHAT_SECONDS.
     */
    conversationEnded(e: EndedChat) {
      if (!ONE_TO_ONE.has(e.kind) || e.userIds.length !== 2 || !e.userIds.every((id) => e.spoke.includes(id))) return;
      const long = Date.now() - e.openedAt >= minChatMs;
      for (const userId of e.userIds) {
        recordLater(userId, { kind: 'chatAnswered', key: e.roomId })
          .then(() => (long ? recordLater(userId, { kind: 'chatMinute', key: e.roomId }) : undefined))
          .catch(onError);
      }
    },
    /**
     * Time in a live stream: its whole minutes, once per stretch (keyed by who, which stream, which
     * role and when it began), so a repeated report adds nothing.
     */
    liveTime(t: LiveTime) {
      const minutes = Math.floor((t.to - t.from) / 60_000);
      if (minutes < 1) return;
      recordLater(t.userId, { kind: 'liveMinutes', key: `${t.roomId}:${t.role}:${t.from}`, amount: minutes }).catch(onError);
    },
    /** A group message got a reply or a reaction: its author is rewarded once per message. */
    groupMessageAnswered(e: { roomId: string; messageId: number; authorId: string }) {
      recordLater(e.authorId, { kind: 'groupMessageAnswered', key: `${e.roomId}:${e.messageId}` }).catch(onError);
    },
    service: missions,
    close: async () => clearInterval(sweep),
  };
}
