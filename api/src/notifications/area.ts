import { publicUrl } from '../platform/config.ts';
import type { AppDeps } from '../deps.ts';
import type { Realtime } from '../realtime/server.ts';
import { focusTracker } from './focus.ts';
import { createNotifier, type Notifier } from './notifier.ts';
import { webPush } from './push.ts';
import type { PushTransportOverride } from './endpoints.ts';
import { notificationRoutes } from './routes.ts';
import { attachNotificationSockets } from './socket.ts';
import { notificationStore } from './store.ts';

export type { Notifier, Notice } from './notifier.ts';

/** Notifications as server.ts composes them: the list, live delivery, Web Push, and the Notifier other areas call. */
export function createNotifications(deps: AppDeps, opts: { pushTransport?: PushTransportOverride | undefined } = {}) {
  const store = notificationStore(deps.db);
  const focus = focusTracker();
  const push = webPush(deps.db, { ...deps.secrets.vapid, subject: vapidSubject(publicUrl(deps.cfg)) }, opts.pushTransport);
  let realtime: Pick<Realtime, 'toUser'> | undefined;
  const notifier: Notifier = createNotifier({
    db: deps.db,
    store,
    push,
    focus,
    toUser: (userId, event, payload) => realtime?.toUser(userId, event, payload),
  });
  return {
    routes: notificationRoutes(deps, store, push),
    notifier,
    push,
    attach(rt: Pick<Realtime, 'io' | 'toUser'>) {
      realtime = rt;
      attachNotificationSockets(rt, focus, deps.log);
    },
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
