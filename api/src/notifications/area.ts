import { publicUrl } from '../platform/config.ts';
import { words } from '../platform/i18n/i18n.ts';
import type { AppDeps, StoredRoomEventSource } from '../deps.ts';
import { readSettingsAndDevices } from '../db/settings.ts';
import { inQuietHours } from './quietHours.ts';
import { focusTracker } from './focus.ts';
import { createNotifier, type Notifier } from './notifier.ts';
import { webPush } from './push.ts';
import type { PushTransportOverride } from './endpoints.ts';
import { notificationRoutes } from './routes.ts';
import { attachNotificationSockets } from './socket.ts';
import { notificationStore } from './store.ts';

export type { Notifier, Notice } from './notifier.ts';

export const DIRECT_MESSAGE = /*i18n*/ { id: 'notice.directMessage', message: '{sender}: {preview}' };
const MENTION = /*i18n*/ { id: 'notice.mention', message: '{sender} mentioned you in {room}: {preview}' };
const THREAD_REPLY = /*i18n*/ { id: 'notice.threadReply', message: '{sender} replied in a thread in {room}: {preview}' };

/** What notifications follow; server.ts wires it. */
export type NotificationWiring = {
  /** Stored rooms: a direct message stored, a member mentioned in a group. */
  storedRooms: StoredRoomEventSource;
  /** Tests only: a local Web Push stand-in the server may send to despite its private address. */
  pushTransport?: PushTransportOverride | undefined;
};

/** Notifications as server.ts composes them: the list, live delivery, Web Push, and the Notifier other areas call. */
export function createNotifications(deps: AppDeps, wiring: NotificationWiring) {
  const store = notificationStore(deps.db);
  const focus = focusTracker();
  const push = webPush(deps.db, { ...deps.secrets.vapid, subject: vapidSubject(publicUrl(deps.cfg)) }, wiring.pushTransport);
  const notifier: Notifier = createNotifier({
    db: deps.db,
    store,
    push,
    focus,
    toUser: (userId, event, payload) => deps.realtime.toUser(userId, event, payload),
  });
  attachNotificationSockets(deps.realtime, focus, deps.log, {
    store,
    toUser: (userId, event, payload) => deps.realtime.toUser(userId, event, payload),
    limiter: deps.limiters.create({ keyPrefix: 'notification-read-focus', points: 60, durationSeconds: 60 }),
  });
  // Direct messages and mentions reach their person in the app and by push (coalesced per conversation).
  // A notice that fails (the database away, or closing at shutdown) is logged: the message itself was stored and sent.
  wiring.storedRooms.on('directMessage', (e) =>
    notifier
      .notify(e.recipientId, {
        kind: 'directMessage',
        words: words(DIRECT_MESSAGE, { sender: e.senderName, preview: e.preview }),
        link: `/messages/${encodeURIComponent(e.senderName)}`,
        coalesceKey: `dm:${e.roomId}`,
      })
      .catch((err: unknown) => deps.log.warn({ err }, 'direct message notification failed')),
  );
  wiring.storedRooms.on('mentioned', (e) =>
    notifier
      .notify(e.mentionedUserId, {
        kind: 'mention',
        words: words(MENTION, { sender: e.senderName, room: e.roomName, preview: e.preview }),
        // To the message: in its thread when it is a reply there, else brought up in the room.
        link: e.threadId === undefined ? `/groupchat/${e.roomId}?message=${e.messageId}` : `/groupchat/${e.roomId}?thread=${e.threadId}`,
        coalesceKey: `mention:${e.roomId}`,
      })
      .catch((err: unknown) => deps.log.warn({ err }, 'mention notification failed')),
  );
  // One notification per thread while unread: its replies add to its count.
  wiring.storedRooms.on('threadReply', (e) =>
    notifier
      .notify(e.followerId, {
        kind: 'threadReply',
        words: words(THREAD_REPLY, { sender: e.senderName, room: e.roomName, preview: e.preview }),
        link: `/groupchat/${e.roomId}?thread=${e.rootId}`,
        coalesceKey: `thread:${e.roomId}:${e.rootId}`,
      })
      .catch((err: unknown) => deps.log.warn({ err }, 'thread reply notification failed')),
  );
  return {
    routes: notificationRoutes(deps, store, push),
    notifier,
    /** Devices of a user stop receiving pushes (all, or all but those of the sign-ins kept). */
    unsubscribeDevices: (userId: string, keepSids?: string[]) => push.unsubscribeAll(userId, keepSids),
    /** Whether it is the user's quiet hours at `at` (their notification settings). */
    quiet: async (userId: string, at: Date) =>
      inQuietHours((await readSettingsAndDevices(deps.db, userId))?.settings.quietHours ?? null, at),
    close: async () => push.close(),
  };
}

/** Push services want a contact: the public https address, else a mailto (Apple refuses http and localhost subjects). */
function vapidSubject(url: string): string {
  const u = new URL(url);
  return u.protocol === 'https:' && u.hostname !== 'localhost'
    ? u.origin
    : `mailto:webpush@${u.hostname.includes('.') ? u.hostname : 'parley.invalid'}`;
}
