import {
  liveAnswerSchema,
  liveBanSchema,
  liveDeleteSchema,
  liveEvents,
  liveGiftSchema,
  liveMessageSchema,
  liveModeratorSchema,
  liveMuteSchema,
  livePublishSchema,
  liveRoomSchema,
  liveWatchSchema,
} from '@parley/contract/live';
import type { AppIo, AppSocket } from '../realtime/server.ts';
import type { Logger } from '../platform/logger.ts';
import { DomainError } from '../platform/errors.ts';
import { parseEvent, Refusal, refuseWithAck, withAck } from '../realtime/refusals.ts';
import type { Limiter } from '../platform/rateLimit.ts';
import type { LiveOutbox, LiveStreams } from './streams.ts';

/** The socket.io room of everyone watching a stream (and its broadcaster). */
export const streamRoom = (roomId: string) => `live:${roomId}`;

/** The streams' outbox over socket.io. */
export function liveOutbox(getIo: () => AppIo | undefined): LiveOutbox {
  return {
    viewers: (roomId, viewers) => getIo()?.to(streamRoom(roomId)).emit(liveEvents.viewers, { roomId, viewers }),
    ended(roomId, startedAt, endedAt) {
      const io = getIo();
      if (!io) return;
      io.to(streamRoom(roomId)).emit(liveEvents.ended, { roomId, startedAt, endedAt });
      io.in(streamRoom(roomId)).socketsLeave(streamRoom(roomId));
    },
    dropped(viewerKey, roomId) {
      const socket = getIo()?.sockets.sockets.get(viewerKey);
      socket?.emit(liveEvents.ban, { roomId });
      void socket?.leave(streamRoom(roomId));
    },
  };
}

/** A domain error as a socket refusal the page can show. */
const asRefusal = (err: unknown) => (err instanceof DomainError ? new Refusal(err.message, err.code) : err);

/**
 * Thin socket handlers of live streams: parse with the contract, check the caller's allowance,
 * call the streams, answer in the acknowledgement. Who may do what is decided in `streams.ts`,
 * against `socket.data.user`, never against the payload.
 */
export function attachLiveSockets(io: AppIo, streams: LiveStreams, log: Logger, limits: { joins: Limiter; gifts: Limiter }) {
  const { joins, gifts } = limits;
  // Which stream each broadcaster's socket owns: the stream ends when that connection closes.
  const owners = new Map<string, string>();

  io.on('connection', (socket: AppSocket) => {
    const user = socket.data.user;
    // A broadcaster's page that reconnected owns its stream again, and hears its chat.
    const own = streams.ownerReturned(user.userId);
    if (own) {
      owners.set(socket.id, own);
      void socket.join(streamRoom(own));
    }
    const handle = <T>(event: string, schema: { safeParse(v: unknown): unknown }, run: (payload: T) => Promise<unknown> | unknown) => {
      socket.on(event, async (...args: unknown[]) => {
        const { payload, ack } = withAck<unknown>(args);
        try {
          const answer = await run(parseEvent(schema as never, payload) as T);
          ack?.({ ok: true, ...(answer as object) });
        } catch (err) {
          refuseWithAck(socket, log, event, asRefusal(err), ack as never);
        }
      });
    };
    // Joining starts a peer connection on the server: a loop of joins must not exhaust it.
    const allowJoin = async () => {
      const take = await joins.take(user.userId);
      if (!take.ok) throw new Refusal(`Too many attempts to join. Wait ${take.retryAfterS} s and try again.`, 'rate_limited');
    };

    handle<{ roomId: string; offer: { type: 'offer' | 'answer'; sdp: string } }>(
      liveEvents.publish,
      livePublishSchema,
      async ({ roomId, offer }) => {
        await allowJoin();
        const answer = await streams.publish(user.userId, roomId, offer);
        owners.set(socket.id, roomId);
        await socket.join(streamRoom(roomId));
        return { answer };
      },
    );
    handle<{ roomId: string }>(liveEvents.watch, liveWatchSchema, async ({ roomId }) => {
      await allowJoin();
      const watching = await streams.watch(user.userId, socket.id, roomId);
      await socket.join(streamRoom(roomId));
      return watching;
    });
    handle<{ roomId: string; answer: { type: 'offer' | 'answer'; sdp: string } }>(
      liveEvents.answer,
      liveAnswerSchema,
      ({ roomId, answer }) => streams.answer(socket.id, roomId, answer),
    );
    handle<{ roomId: string }>(liveEvents.leave, liveRoomSchema, async ({ roomId }) => {
      streams.leave(socket.id, roomId);
      await socket.leave(streamRoom(roomId));
    });
    handle<{ roomId: string }>(liveEvents.end, liveRoomSchema, async ({ roomId }) => {
      await streams.end(user.userId, roomId);
    });
    handle<{ roomId: string; text: string }>(liveEvents.message, liveMessageSchema, ({ roomId, text }) => {
      const message = streams.sendMessage(user, roomId, text);
      io.to(streamRoom(roomId)).emit(liveEvents.message, message);
      return { id: message.id };
    });
    handle<{ roomId: string; amount: number; idempotencyKey: string }>(liveEvents.gift, liveGiftSchema, async ({ roomId, amount, idempotencyKey }) => {
      const take = await gifts.take(user.userId);
      if (!take.ok) throw new Refusal(`You are sending gifts too fast. Wait ${take.retryAfterS} s.`, 'rate_limited');
      const { gold, message } = await streams.sendGift(user, roomId, amount, idempotencyKey);
      if (message) io.to(streamRoom(roomId)).emit(liveEvents.message, message);
      return { gold };
    });
    handle<{ roomId: string; messageId: string }>(liveEvents.deleteMessage, liveDeleteSchema, ({ roomId, messageId }) => {
      streams.deleteMessage(user.userId, roomId, messageId);
      io.to(streamRoom(roomId)).emit(liveEvents.deleteMessage, { roomId, messageId });
    });
    handle<{ roomId: string; userId: string; muted: boolean }>(liveEvents.mute, liveMuteSchema, ({ roomId, userId, muted }) => {
      streams.mute(user.userId, roomId, userId, muted);
      for (const key of streams.viewerKeys(roomId)) {
        const s = io.sockets.sockets.get(key);
        if (s?.data.user.userId === userId) s.emit(liveEvents.mute, { roomId, muted });
      }
    });
    handle<{ roomId: string; userId: string }>(liveEvents.ban, liveBanSchema, ({ roomId, userId }) => {
      streams.ban(user.userId, roomId, userId);
    });
    handle<{ roomId: string; userId: string; moderator: boolean }>(
      liveEvents.moderator,
      liveModeratorSchema,
      ({ roomId, userId, moderator }) => {
        const moderators = streams.setModerator(user.userId, roomId, userId, moderator);
        io.to(streamRoom(roomId)).emit(liveEvents.moderator, { roomId, moderators });
      },
    );

    socket.on('disconnect', () => {
      streams.disconnected(socket.id, user.userId, (roomId) => owners.get(socket.id) === roomId);
      owners.delete(socket.id);
    });
  });
}
