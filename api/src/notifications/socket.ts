import { focusSchema, notificationEvents } from '@parley/contract/notifications';
import type { Logger } from '../platform/logger.ts';
import type { Realtime } from '../realtime/server.ts';
import { parseEvent, refuse } from '../realtime/refusals.ts';
import type { FocusTracker } from './focus.ts';

/** Pages report what they show (`notification:focus`), so what a person is reading is not pushed to them. */
export function attachNotificationSockets(realtime: Pick<Realtime, 'io'>, focus: FocusTracker, log: Logger) {
  realtime.io.on('connection', (socket) => {
    const { userId } = socket.data.user;
    socket.on(notificationEvents.focus, (payload: unknown) => {
      try {
        focus.set(userId, socket.id, parseEvent(focusSchema, payload));
      } catch (err) {
        refuse(socket, log, notificationEvents.focus, err);
      }
    });
    socket.on('disconnect', () => focus.forget(userId, socket.id));
  });
}
