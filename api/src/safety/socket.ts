import { safetyEvents, type QueueChanged } from '@parley/contract/safety';
import type { Db } from '../db/client.ts';
import { findAccountById } from '../db/accounts.ts';
import type { AppIo, AppSocket } from '../realtime/server.ts';
import { socketEvents } from '../realtime/dispatch.ts';
import { withAck } from '../realtime/refusals.ts';

const MODERATORS_ROOM = 'moderators';
export const WATCH_QUEUE = 'moderation:watch';

/**
 * The moderators' page asks to watch the queue; the role is checked in the database, and the
 * socket joins a room that every process's reports reach (through the adapter with Redis).
 */
export function attachModeratorSockets(io: AppIo, db: Db) {
  socketEvents(io).on(WATCH_QUEUE, (socket: AppSocket, args) => {
    const { ack } = withAck<{ ok: boolean }>(args);
    void findAccountById(db, socket.data.user.userId).then(
      (account) => {
        // Moderators work only with two-factor on, as on the moderation API.
        const allowed = (account?.role === 'moderator' || account?.role === 'admin') && Boolean(account.twoFactorAt);
        if (allowed) void socket.join(MODERATORS_ROOM);
        ack?.({ ok: allowed });
      },
      () => ack?.({ ok: false }),
    );
  });
  return {
    queueChanged(change: QueueChanged) {
      io.to(MODERATORS_ROOM).emit(safetyEvents.queueChanged, change);
    },
  };
}
