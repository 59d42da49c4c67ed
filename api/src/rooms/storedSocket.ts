import type { ZodType } from 'zod';
import {
  deleteMessageSchema,
  editMessageSchema,
  joinRoomSchema,
  leaveRoomViewSchema,
  postMessageSchema,
  reactSchema,
  readSchema,
  roomTypingSchema,
  roomEvents as wire,
} from '@parley/contract/rooms';
import type { AppIo, AppSocket } from '../realtime/server.ts';
import type { Logger } from '../platform/logger.ts';
import { DomainError } from '../platform/errors.ts';
import { parseEvent, Refusal, refuse, refuseWithAck, withAck } from '../realtime/refusals.ts';
import type { StoredRoomFanout, StoredRooms } from './storedRooms.ts';

const watchRoom = (roomId: string) => `sr:${roomId}`;
const userRoom = (userId: string) => `user:${userId}`;

/** Stored rooms over socket.io: a socket.io room per stored room, and the `user:` room every socket of a user is in. */
export function socketFanout(io: AppIo): StoredRoomFanout {
  return {
    watch: (socketId, roomId) => io.in(socketId).socketsJoin(watchRoom(roomId)),
    unwatch: (socketId, roomId) => io.in(socketId).socketsLeave(watchRoom(roomId)),
    toRoom(roomId, event, payload, exceptSocket, exceptUsers = []) {
      const except = [...(exceptSocket ? [exceptSocket] : []), ...exceptUsers.map(userRoom)];
      const to = io.to(watchRoom(roomId));
      (except.length > 0 ? to.except(except) : to).emit(event, payload);
    },
    toUsers(userIds, event, payload) {
      if (userIds.length > 0) io.to(userIds.map(userRoom)).emit(event, payload);
    },
    unwatchUser: (userId, roomId) => io.in(userRoom(userId)).socketsLeave(watchRoom(roomId)),
  };
}

/** A domain refusal as the socket layer answers it; anything else stays an error (`internal`). */
const asRefusal = (err: unknown) =>
  err instanceof DomainError ? Object.assign(new Refusal(err.message, err.code), { retryAfterS: err.retryAfterS }) : err;

/**
 * Thin socket handlers of stored rooms: every event parsed with the contract, every one checked
 * against the sender's membership by StoredRooms, answered through its acknowledgement.
 */
export function attachStoredRoomSockets(io: AppIo, rooms: StoredRooms, log: Logger, allowTyping: (userId: string) => boolean) {
  io.on('connection', (socket: AppSocket) => {
    const user = socket.data.user;

    /** An event with an acknowledgement: parse, run, answer `{ ok: true, ...result }` or the refusal. */
    function handle<T>(event: string, schema: ZodType<T>, run: (payload: T) => Promise<object | void>) {
      socket.on(event, (...args: unknown[]) => {
        const { payload, ack } = withAck<object>(args);
        const answer = (err: unknown) => {
          const r = asRefusal(err);
          if (ack && r instanceof Refusal) {
            const retry = (r as Refusal & { retryAfterS?: number }).retryAfterS;
            refuseWithAck(socket, log, event, r, (a) => ack(retry === undefined ? a : { ...a, retryAfterS: retry }));
          } else refuse(socket, log, event, r);
        };
        try {
          const parsed = parseEvent(schema, payload);
          run(parsed).then((result) => ack?.({ ok: true, ...result }), answer);
        } catch (err) {
          answer(err);
        }
      });
    }

    handle(wire.join, joinRoomSchema, (p) => rooms.join(socket.id, user, p));
    handle(wire.unwatch, leaveRoomViewSchema, async ({ roomId }) => rooms.unwatch(socket.id, roomId, user.userId));
    handle(wire.post, postMessageSchema, (p) => rooms.post(user, p));
    handle(wire.edit, editMessageSchema, (p) => rooms.edit(user, p.roomId, p.id, p.text));
    handle(wire.delete, deleteMessageSchema, (p) => rooms.remove(user, p.roomId, p.id));
    handle(wire.react, reactSchema, (p) => rooms.react(user, p.roomId, p.id, p.emoji, p.on));
    handle(wire.read, readSchema, async (p) => {
      // Read positions move often while scrolling; past the allowance they wait for the next one.
      if (allowTyping(user.userId)) await rooms.read(user, p.roomId, p.lastReadId);
    });
    socket.on(wire.typing, (payload: unknown) => {
      try {
        const t = parseEvent(roomTypingSchema, payload);
        if (!t.typing || allowTyping(user.userId)) rooms.typing(socket.id, user, t.roomId, t.typing);
      } catch (err) {
        refuse(socket, log, wire.typing, err);
      }
    });
    socket.on('disconnect', () => rooms.disconnect(socket.id, user.userId));
  });
}
