import { focusSchema, notificationEvents, type Focus, type NotificationsRead } from '@parley/contract/notifications';
import type { Logger } from '../platform/logger.ts';
import type { Limiter } from '../platform/rateLimit.ts';
import type { Realtime } from '../realtime/server.ts';
import { parseEvent, refuse } from '../realtime/refusals.ts';
import { socketEvents } from '../realtime/dispatch.ts';
import type { FocusTracker } from './focus.ts';
import type { NotificationStore } from './store.ts';

/** What reading a conversation needs: its notices marked read, and the user's other pages told. */
export type ReadOnFocus = {
  store: Pick<NotificationStore, 'markReadAt'>;
  toUser(userId: string, event: string, payload: unknown): void;
  /** Per user: a page reporting what it shows in a loop does not turn each report into a write. */
  limiter: Pick<Limiter, 'take'>;
};

/** Only a conversation's page (a direct one, a group room) reads a coalesced notice: no write for any other page. */
const CONVERSATION = /^\/(messages|groupchat)\/[^/]+$/;

/**
 * Pages report what they show (`notification:focus`), so what a person is reading is not pushed to
 * them; a visible page of a conversation marks its notices read (the bell's count follows on every page).
 */
export function attachNotificationSockets(realtime: Pick<Realtime, 'io'>, focus: FocusTracker, log: Logger, read?: ReadOnFocus) {
  const events = socketEvents(realtime.io);
  events.on(notificationEvents.focus, (socket, [payload]) => {
    const { userId } = socket.data.user;
    let f: Focus;
    try {
      f = parseEvent(focusSchema, payload);
    } catch (err) {
      return refuse(socket, log, notificationEvents.focus, err);
    }
    focus.set(userId, socket.id, f);
    const path = f.path;
    if (!read || !f.visible || !path || !CONVERSATION.test(path)) return;
    // Nothing for the page to answer: a mark that fails (the database away) leaves the notice unread.
    void (async () => {
      if (!(await read.limiter.take(userId)).ok) return;
      const changed = await read.store.markReadAt(userId, path);
      if (changed.length > 0) read.toUser(userId, notificationEvents.read, { notificationIds: changed } satisfies NotificationsRead);
    })().catch((err: unknown) => log.warn({ err }, 'marking a conversation notice read failed'));
  });
  events.onDisconnect((socket) => focus.forget(socket.data.user.userId, socket.id));
}
