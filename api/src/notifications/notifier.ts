import type { MessageDescriptor } from '@lingui/core';
import { notificationEvents, type AppNotification, type NotificationKind } from '@parley/contract/notifications';
import type { Db } from '../db/client.ts';
import { render, words, type Words } from '../platform/i18n/i18n.ts';
import { readSettingsAndDevices } from '../db/settings.ts';
import type { FocusTracker } from './focus.ts';
import type { NotificationStore } from './store.ts';
import type { PushOutcome, WebPush } from './push.ts';
import { inQuietHours } from './quietHours.ts';

/**
 * What an area tells a user about, in words rendered in the user's language when it is sent (the
 * stored notice keeps that text). `coalesceKey`: unread notifications with the same key are one (a
 * direct conversation).
 */
export type Notice = { kind: NotificationKind; words: Words; link: string; coalesceKey?: string };

/** A push's title: what kind of thing happened. */
const PUSH_TITLES: Record<NotificationKind, MessageDescriptor> = {
  friendRequest: /*i18n*/ { id: 'push.title.friendRequest', message: 'Friend request' },
  friendAccepted: /*i18n*/ { id: 'push.title.friendAccepted', message: 'New friend' },
  directMessage: /*i18n*/ { id: 'push.title.directMessage', message: 'New message' },
  mention: /*i18n*/ { id: 'push.title.mention', message: 'You were mentioned' },
  threadReply: /*i18n*/ { id: 'push.title.threadReply', message: 'New reply in a thread' },
  missionReminder: /*i18n*/ { id: 'push.title.missionReminder', message: 'Missions' },
  levelUp: /*i18n*/ { id: 'push.title.levelUp', message: 'Level up' },
  moderation: /*i18n*/ { id: 'push.title.moderation', message: 'From the moderators' },
  wentLive: /*i18n*/ { id: 'push.title.wentLive', message: 'Live now' },
  supportReply: /*i18n*/ { id: 'push.title.supportReply', message: 'Parley support replied' },
  signIn: /*i18n*/ { id: 'push.title.signIn', message: 'New sign-in' },
};
/** A coalesced notice's push: the newest text and how many more it stands for. */
const WITH_MORE = /*i18n*/ { id: 'push.withMore', message: '{text} ({more, plural, one {+# more} other {+# more}})' };

/** What happened to a notice: stored in the app (and shown live), pushed to devices. */
export type Delivery = {
  notification: AppNotification | null;
  push: PushOutcome | null;
  skipped?: 'preferences' | 'noAccount' | 'looking';
};

/**
 * How any area notifies a user, without importing this one: created in server.ts and handed on.
 * Each kind follows the user's preferences (in-app, push) and quiet hours (no push then); nothing
 * is pushed about what a visible page of the user shows right now, and nothing at all about the
 * conversation (a coalesced notice) it shows.
 */
export type Notifier = { notify(userId: string, notice: Notice): Promise<Delivery> };

export function createNotifier(deps: {
  db: Db;
  store: NotificationStore;
  push: WebPush;
  focus: FocusTracker;
  toUser(userId: string, event: string, payload: unknown): void;
  now?: () => Date;
}): Notifier {
  const now = deps.now ?? (() => new Date());
  return {
    async notify(userId, notice) {
      // A conversation the user has in front of them shows the message itself: no notice, stored or pushed.
      if (notice.coalesceKey && deps.focus.isLooking(userId, notice.link)) return { notification: null, push: null, skipped: 'looking' };
      const account = await readSettingsAndDevices(deps.db, userId);
      if (!account) return { notification: null, push: null, skipped: 'noAccount' };
      const { settings, devices } = account;
      const text = render(settings.locale, notice.words);
      const pref = settings.notifications[notice.kind];
      if (!pref.inApp && !pref.push) return { notification: null, push: null, skipped: 'preferences' };
      const looking = deps.focus.isLooking(userId, notice.link);
      let notification: AppNotification | null = null;
      if (pref.inApp) {
        notification = await deps.store.add(userId, {
          kind: notice.kind,
          text,
          link: notice.link,
          coalesceKey: notice.coalesceKey,
          read: looking,
        });
        deps.toUser(userId, notificationEvents.created, notification);
      }
      if (!pref.push || looking || inQuietHours(settings.quietHours, now())) return { notification, push: null };
      const push = await deps.push.sendTo(devices, {
        notificationId: notification?.notificationId ?? `${notice.kind}:${Date.now()}`,
        kind: notice.kind,
        title: render(settings.locale, words(PUSH_TITLES[notice.kind])),
        body:
          notification && notification.count > 1 ? render(settings.locale, words(WITH_MORE, { text, more: notification.count - 1 })) : text,
        link: notice.link,
        // One notification on the device per conversation: a new message replaces the last.
        tag: notice.coalesceKey ?? `${notice.kind}:${notification?.notificationId ?? Date.now()}`,
      });
      return { notification, push };
    },
  };
}
