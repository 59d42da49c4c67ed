import { z, type ZodType } from 'zod';
import { ATTACHMENT_KINDS, type AttachmentKind } from '@parley/contract/attachments';
import type { TokenUser } from '@parley/contract/auth';
import {
  deleteMessageSchema,
  editMessageSchema,
  joinRoomSchema,
  leaveRoomViewSchema,
  moderateSchema,
  openThreadSchema,
  followThreadSchema,
  threadReadSchema,
  postMessageSchema,
  quickPostMessage,
  reactSchema,
  readSchema,
  roomTypingSchema,
  allowPicturesSchema,
  roomIdSchema,
  roomEvents as wire,
  type AllowPictures,
  type JoinRoom,
  type ModerateRoom,
  type OpenThread,
  type PostMessage,
} from '@parley/contract/rooms';
import type { AppIo } from '../realtime/server.ts';
import { socketEvents } from '../realtime/dispatch.ts';
import type { Logger } from '../platform/logger.ts';
import { DomainError } from '../platform/errors.ts';
import { parseEvent, Refusal, refuse, refuseWithAck, withAck } from '../realtime/refusals.ts';
import type { StoredRoomFanout, RoomCore } from './core.ts';
import type { RoomModeration } from './moderation.ts';

const watchRoom = (roomId: string) => `sr:${roomId}`;
const userRoom = (userId: string) => `user:${userId}`;

/** Stored rooms over socket.io: a socket.io room per stored room, and the `user:` room every socket of a user is in. */
export function socketFanout(io: AppIo): StoredRoomFanout {
  return {
    // A socket of this process joins at once: through a cluster adapter, `io.in(id).socketsJoin` is a
    // round trip over the bus, and a message posted right after the join's answer would miss it.
    watch(socketId, roomId) {
      const here = io.sockets.sockets.get(socketId);
      if (here) void here.join(watchRoom(roomId));
      else io.in(socketId).socketsJoin(watchRoom(roomId));
    },
    unwatch(socketId, roomId) {
      const here = io.sockets.sockets.get(socketId);
      if (here) void here.leave(watchRoom(roomId));
      else io.in(socketId).socketsLeave(watchRoom(roomId));
    },
    toRoom(roomId, event, payload, exceptSocket, exceptUsers = []) {
      const except = [...(exceptSocket ? [exceptSocket] : []), ...exceptUsers.map(userRoom)];
      const to = io.to(watchRoom(roomId));
      (except.length > 0 ? to.except(except) : to).emit(event, payload);
    },
    toUsers(userIds, event, payload) {
      if (userIds.length > 0) io.to(userIds.map(userRoom)).emit(event, payload);
    },
    unwatchUser: (userId, roomId) => io.in(userRoom(userId)).socketsLeave(watchRoom(roomId)),
    unwatchAll: (roomId) => io.in(watchRoom(roomId)).socketsLeave(watchRoom(roomId)),
  };
}

/** A domain refusal as the socket layer answers it; anything else stays an error (`internal`). */
const asRefusal = (err: unknown) =>
  err instanceof DomainError ? Object.assign(new Refusal(err.message, err.code), { retryAfterS: err.retryAfterS }) : err;

type Op = {
  schema: ZodType;
  /** The schema's result for the usual payload, found without zod; undefined hands it to the schema. */
  quick?(payload: unknown): object | undefined;
  /** run() without a promise where nothing needs awaiting (throws its refusals); undefined hands it to run(). */
  runNow?(socketId: string, user: TokenUser, payload: never): object | undefined;
  run(socketId: string, user: TokenUser, payload: never): Promise<object | void>;
};

const parseOp = (op: Op, payload: unknown) => op.quick?.(payload) ?? parseEvent(op.schema, payload);

/**
 * Per-user allowances of the room events that cost more than a frame: `signal` for typing, read
 * positions and thread follows (each a write or a fan-out), `open` for joins and thread opens (each
 * reads a page of history).
 */
export type RoomAllowances = { signal(userId: string): boolean; open(userId: string): boolean };

/**
 * Checks an HTTP request about a room's attachments runs where the room is held (scaled out, a 1:1
 * chat's members and their consent to pictures live in one process): never a socket event.
 */
export const attachmentChecks = { upload: 'attachment:uploadable', read: 'attachment:readable' } as const;
const uploadCheckSchema = z.object({ roomId: roomIdSchema, kind: z.enum(ATTACHMENT_KINDS) });
const readCheckSchema = z.object({ roomId: roomIdSchema });

const TOO_MANY = 'Too many requests. Wait a moment and try again.';
const tooMany = () => new Refusal(TOO_MANY, 'rate_limited');

/**
 * The room events as the core runs them, for a socket of `user`: parsed with the contract, checked
 * against the sender's place in the room by the core. The same table serves a socket here and an
 * event forwarded from another process (a stream this process holds).
 */
export function roomOps(rooms: RoomCore, allow: RoomAllowances, moderation: RoomModeration) {
  const allowTyping = allow.signal;
  const ops: Record<string, Op> = {
    [wire.join]: {
      schema: joinRoomSchema,
      run: async (socketId, user, p: JoinRoom) => {
        if (!allow.open(user.userId)) throw tooMany();
        return rooms.join(socketId, user, p);
      },
    },
    [wire.unwatch]: {
      schema: leaveRoomViewSchema,
      run: async (socketId, user, { roomId }: { roomId: string }) => rooms.unwatch(socketId, roomId, user.userId),
    },
    [wire.post]: {
      schema: postMessageSchema,
      quick: quickPostMessage,
      runNow: (s, user, p: PostMessage) => rooms.postNow(user, p, s),
      run: (s, user, p: PostMessage) => rooms.post(user, p, s),
    },
    [wire.edit]: {
      schema: editMessageSchema,
      run: (s, user, p: { roomId: string; id: number; text: string }) => rooms.edit(user, p.roomId, p.id, p.text, s),
    },
    [wire.delete]: {
      schema: deleteMessageSchema,
      run: (s, user, p: { roomId: string; id: number }) => rooms.remove(user, p.roomId, p.id, s),
    },
    [wire.react]: {
      schema: reactSchema,
      run: (s, user, p: { roomId: string; id: number; emoji: string; on: boolean }) => rooms.react(user, p.roomId, p.id, p.emoji, p.on, s),
    },
    [wire.read]: {
      schema: readSchema,
      run: async (s, user, p: { roomId: string; lastReadId: number }) => {
        // Read positions move often while scrolling; past the allowance they wait for the next one.
        if (allowTyping(user.userId)) await rooms.read(user, p.roomId, p.lastReadId, s);
      },
    },
    [wire.thread]: {
      schema: openThreadSchema,
      run: async (s, user, p: OpenThread) => {
        if (!allow.open(user.userId)) throw tooMany();
        return rooms.openThread(s, user, p);
      },
    },
    [wire.threadRead]: {
      schema: threadReadSchema,
      run: async (s, user, p: { roomId: string; rootId: number; lastReadId: number }) => {
        if (allowTyping(user.userId)) await rooms.threadRead(user, p.roomId, p.rootId, p.lastReadId, s);
      },
    },
    [wire.follow]: {
      schema: followThreadSchema,
      run: async (s, user, p: { roomId: string; rootId: number; on: boolean }) => {
        if (!allowTyping(user.userId)) throw tooMany();
        return rooms.follow(user, p.roomId, p.rootId, p.on, s);
      },
    },
    [wire.pictures]: {
      schema: allowPicturesSchema,
      run: async (s, user, p: AllowPictures) => {
        if (!allowTyping(user.userId)) throw tooMany();
        return rooms.allowPictures(user, p.roomId, p.allow, s);
      },
    },
    // Every kind's moderation, one way: a stream's runs where the stream is held, as its chat does.
    [wire.moderate]: {
      schema: moderateSchema,
      run: (_s, user, { roomId, ...m }: ModerateRoom) => moderation.act(roomId, user, m),
    },
  };
  // Typing has no acknowledgement (its own socket handler), but runs here too for a room another process holds.
  const forwardedOnly: Record<string, Op> = {
    [wire.typing]: {
      schema: roomTypingSchema,
      run: async (s, user, t: { roomId: string; typing: boolean }) => {
        if (!t.typing || allowTyping(user.userId)) rooms.typing(s, user, t.roomId, t.typing);
      },
    },
    [attachmentChecks.upload]: {
      schema: uploadCheckSchema,
      run: async (_s, user, p: { roomId: string; kind: AttachmentKind }) => rooms.uploadable(p.roomId, user.userId, p.kind),
    },
    [attachmentChecks.read]: {
      schema: readCheckSchema,
      run: async (_s, user, p: { roomId: string }) => {
        await rooms.readable(p.roomId, user.userId);
      },
    },
  };
  const known = (event: string) => {
    const op = ops[event] ?? forwardedOnly[event];
    if (!op) throw new Refusal('Unknown room event.', 'validation_failed');
    return op;
  };
  return {
    events: Object.keys(ops),
    /** Parses the payload (a Refusal when invalid): what routing needs before the room is found. */
    parse: (event: string, payload: unknown) => parseOp(known(event), payload) as { roomId: string },
    /** Runs a room event here; its answer without `ok`, or a DomainError/Refusal. */
    run: async (event: string, socketId: string, user: TokenUser, payload: unknown): Promise<object> => {
      const op = known(event);
      return (await op.run(socketId, user, parseOp(op, payload) as never)) ?? {};
    },
    /** runParsed() at once where the event needs nothing awaited; undefined when it does. */
    runNow: (event: string, socketId: string, user: TokenUser, parsed: object): object | undefined =>
      known(event).runNow?.(socketId, user, parsed as never),
    /** Runs a room event here whose payload `parse` has already checked. */
    runParsed: async (event: string, socketId: string, user: TokenUser, parsed: object): Promise<object> =>
      (await known(event).run(socketId, user, parsed as never)) ?? {},
  };
}
export type RoomOps = ReturnType<typeof roomOps>;

/**
 * Rooms this process does not hold (a stream or a 1:1 chat held by another process): where their
 * events run. `holds` is sync and cheap, as it is asked for every event.
 */
export type RoomsElsewhere = {
  holds(roomId: string): boolean;
  run(roomId: string, event: string, socketId: string, user: TokenUser, payload: unknown): Promise<object>;
};

/** Several kinds' rooms held elsewhere (streams, 1:1 chats): the first that holds a room runs its events. */
export function elsewhereOf(...kinds: Array<RoomsElsewhere | undefined>): RoomsElsewhere | undefined {
  const all = kinds.filter((k): k is RoomsElsewhere => k !== undefined);
  if (all.length <= 1) return all[0];
  const find = (roomId: string) => all.find((k) => k.holds(roomId));
  return {
    holds: (roomId) => find(roomId) !== undefined,
    run: (roomId, ...rest) => find(roomId)!.run(roomId, ...rest),
  };
}

/**
 * Thin socket handlers of every room kind's conversation: every event parsed with the contract,
 * run by the core here (or, for a room another process holds, there), answered through its
 * acknowledgement.
 */
export function attachStoredRoomSockets(
  io: AppIo,
  rooms: RoomCore,
  log: Logger,
  allow: RoomAllowances,
  moderation: RoomModeration,
  elsewhere?: RoomsElsewhere,
) {
  const ops = roomOps(rooms, allow, moderation);
  const allowTyping = allow.signal;
  const events = socketEvents(io);
  for (const event of ops.events)
    events.on(event, (socket, args) => {
      const { payload, ack } = withAck<object>(args);
      const answer = (err: unknown) => {
        const r = asRefusal(err);
        if (ack && r instanceof Refusal) {
          const retry = (r as Refusal & { retryAfterS?: number }).retryAfterS;
          refuseWithAck(socket, log, event, r, (a) => ack(retry === undefined ? a : { ...a, retryAfterS: retry }));
        } else refuse(socket, log, event, r);
      };
      try {
        const parsed = ops.parse(event, payload);
        const { user } = socket.data;
        const done = (result: object) => ack?.({ ok: true, ...result });
        // A room another process holds runs there; here, what needs nothing awaited is answered at once.
        const there = elsewhere?.holds(parsed.roomId) ? elsewhere : undefined;
        const now = there ? undefined : ops.runNow(event, socket.id, user, parsed);
        if (now !== undefined) done(now);
        else
          (there ? there.run(parsed.roomId, event, socket.id, user, payload) : ops.runParsed(event, socket.id, user, parsed)).then(
            done,
            answer,
          );
      } catch (err) {
        answer(err);
      }
    });
  events.on(wire.typing, (socket, [payload]) => {
    try {
      const t = parseEvent(roomTypingSchema, payload);
      const { user } = socket.data;
      if (elsewhere?.holds(t.roomId))
        void elsewhere
          .run(t.roomId, wire.typing, socket.id, user, t)
          .catch((err: unknown) => refuse(socket, log, wire.typing, asRefusal(err)));
      else if (!t.typing || allowTyping(user.userId)) rooms.typing(socket.id, user, t.roomId, t.typing);
    } catch (err) {
      refuse(socket, log, wire.typing, err);
    }
  });
  events.onDisconnect((socket) => rooms.disconnect(socket.id, socket.data.user.userId));
}
