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
  type LiveSdp,
} from '@parley/contract/live';
import type { ZodType } from 'zod';
import { userRoom, type AppIo } from '../realtime/server.ts';
import { parseEvent } from '../realtime/refusals.ts';
import { DomainError } from '../platform/errors.ts';
import type { LiveStreams } from './streams.ts';

/** The socket.io room of everyone watching a stream (and its broadcaster). */
export const streamRoom = (roomId: string) => `live:${roomId}`;

/**
 * Who asks: the user the receiving process authenticated (its socket's token), that socket's id
 * as the viewer key, and the address it connected from. Never read from a payload.
 */
export type LiveCaller = { userId: string; username: string; viewerKey: string; address?: string | undefined };

/** The stream events that run where the stream is held, whichever process the caller's socket is on. */
export const LIVE_OPS = [
  'publish',
  'ownerAway',
  'ownerBack',
  'watch',
  'answer',
  'leave',
  'end',
  'message',
  'gift',
  'deleteMessage',
  'mute',
  'ban',
  'moderator',
] as const;
export type LiveOp = (typeof LIVE_OPS)[number];

type Op = { event: string; schema: ZodType; run(caller: LiveCaller, payload: never): Promise<object | void> | object | void };

/**
 * The live events as run on the process holding the stream: parsed with the contract (again, when
 * another process forwarded them), authorised by the streams against the caller, and broadcast to
 * the stream's socket.io room, which the Redis adapter carries to viewers on every process.
 */
export function liveActions(
  getIo: () => AppIo | undefined,
  streams: LiveStreams,
  /** The users a user blocked or was blocked by (safety): their chat messages never reach each other. */
  blocksOf?: (userId: string) => Promise<ReadonlySet<string>>,
) {
  const toRoom = (roomId: string, event: string, payload: unknown, exceptUsers: readonly string[] = []) => {
    const to = getIo()?.to(streamRoom(roomId));
    (exceptUsers.length > 0 ? to?.except(exceptUsers.map(userRoom)) : to)?.emit(event, payload);
  };
  const ops: Record<LiveOp, Op> = {
    publish: {
      event: liveEvents.publish,
      schema: livePublishSchema,
      run: async (c, { roomId, offer }: { roomId: string; offer: LiveSdp }) => ({ answer: await streams.publish(c.userId, roomId, offer) }),
    },
    // The broadcaster's socket is on another process: its closing and its return are told here.
    ownerAway: {
      event: 'ownerAway',
      schema: liveRoomSchema,
      run: (c, { roomId }: { roomId: string }) => streams.ownerLeft(c.userId, roomId),
    },
    ownerBack: {
      event: 'ownerBack',
      schema: liveRoomSchema,
      run(c, { roomId }: { roomId: string }) {
        if (streams.ownStream(c.userId) !== roomId) throw new DomainError('not_found', 'This stream has ended.', 'stream_ended');
        streams.ownerReturned(c.userId);
      },
    },
    watch: {
      event: liveEvents.watch,
      schema: liveWatchSchema,
      run: (c, { roomId }: { roomId: string }) => streams.watch(c.userId, c.viewerKey, roomId, c.address),
    },
    answer: {
      event: liveEvents.answer,
      schema: liveAnswerSchema,
      run: (c, { roomId, answer }: { roomId: string; answer: LiveSdp }) => streams.answer(c.viewerKey, roomId, answer),
    },
    leave: {
      event: liveEvents.leave,
      schema: liveRoomSchema,
      run: (c, { roomId }: { roomId: string }) => streams.leave(c.viewerKey, roomId),
    },
    end: {
      event: liveEvents.end,
      schema: liveRoomSchema,
      run: async (c, { roomId }: { roomId: string }) => {
        await streams.end(c.userId, roomId);
      },
    },
    message: {
      event: liveEvents.message,
      schema: liveMessageSchema,
      async run(c, { roomId, text }: { roomId: string; text: string }) {
        const message = streams.sendMessage(c, roomId, text);
        toRoom(roomId, liveEvents.message, message, blocksOf ? [...(await blocksOf(c.userId))] : []);
        return { id: message.id };
      },
    },
    gift: {
      event: liveEvents.gift,
      schema: liveGiftSchema,
      async run(c, { roomId, amount, idempotencyKey }: { roomId: string; amount: number; idempotencyKey: string }) {
        const { gold, message } = await streams.sendGift(c, roomId, amount, idempotencyKey);
        if (message) toRoom(roomId, liveEvents.message, message);
        return { gold };
      },
    },
    deleteMessage: {
      event: liveEvents.deleteMessage,
      schema: liveDeleteSchema,
      run(c, { roomId, messageId }: { roomId: string; messageId: string }) {
        streams.deleteMessage(c.userId, roomId, messageId);
        toRoom(roomId, liveEvents.deleteMessage, { roomId, messageId });
      },
    },
    mute: {
      event: liveEvents.mute,
      schema: liveMuteSchema,
      run(c, { roomId, userId, muted }: { roomId: string; userId: string; muted: boolean }) {
        streams.mute(c.userId, roomId, userId, muted);
        // A socket's id is a room of its own: the muted viewer hears it on whichever process they are.
        for (const key of streams.viewerKeysOf(roomId, userId)) getIo()?.to(key).emit(liveEvents.mute, { roomId, muted });
      },
    },
    ban: {
      event: liveEvents.ban,
      schema: liveBanSchema,
      run(c, { roomId, userId }: { roomId: string; userId: string }) {
        streams.ban(c.userId, roomId, userId);
      },
    },
    moderator: {
      event: liveEvents.moderator,
      schema: liveModeratorSchema,
      run(c, { roomId, userId, moderator }: { roomId: string; userId: string; moderator: boolean }) {
        const moderators = streams.setModerator(c.userId, roomId, userId, moderator);
        toRoom(roomId, liveEvents.moderator, { roomId, moderators });
      },
    },
  };
  return {
    ops,
    /** Parses `payload` for `op` (a Refusal when invalid): what routing needs before the stream is found. */
    parse: (op: LiveOp, payload: unknown) => parseEvent(ops[op].schema, payload) as { roomId: string },
    /** Runs `op` here, for `caller`; the answer (without `ok`) or a DomainError/Refusal. */
    async run(op: LiveOp, caller: LiveCaller, payload: unknown): Promise<object> {
      const parsed = parseEvent(ops[op].schema, payload);
      return (await ops[op].run(caller, parsed as never)) ?? {};
    },
  };
}

export type LiveActions = ReturnType<typeof liveActions>;
