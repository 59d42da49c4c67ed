import { safetyEvents, type QueueChanged } from '@parley/contract/safety';
import type { Db } from '../db/client.ts';
import { findAccountById } from '../db/accounts.ts';
import type { AppIo, AppSocket } from '../realtime/server.ts';
import { socketEvents } from '../realtime/dispatch.ts';
import { withAck } from '../realtime/refusals.ts';
import { messageRateLimit } from '../realtime/eventRateLimit.ts';

const MODERATORS_ROOM = 'moderators';
export const WATCH_QUEUE = 'moderation:watch';
/** A moderators' page asks once a connection; a few more for reloads and tabs. */
const WATCH_ASKS_PER_S = 0.5;
const WATCH_ASKS_BURST = 5;

/**
 * The moderators' page asks to watch the queue; the role is checked in the database, and the
 * socket joins a room that every process's reports reach (through the adapter with Redis).
 */
export function attachModeratorSockets(io: AppIo, db: Db) {
  // Each ask reads the account: any signed-in person could otherwise loop it into a read per frame.
  const asks = messageRateLimit(WATCH_ASKS_PER_S, WATCH_ASKS_BURST);
  socketEvents(io).on(WATCH_QUEUE, (socket: AppSocket, args) => {
    const { ack } = withAck<{ ok: boolean }>(args);
    if (!asks.take(socket.data.user.userId)) return ack?.({ ok: false });
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
