import {
  liveAnswerSchema,
  liveEvents,
  liveGiftSchema,
  livePublishSchema,
  liveRoomSchema,
  liveWatchSchema,
  type LiveSdp,
} from '@parley/contract/live';
import type { TokenUser } from '@parley/contract/auth';
import { z, type ZodType } from 'zod';
import type { AppIo } from '../realtime/server.ts';
import type { RoomCore } from '../rooms/core.ts';
import type { RoomOps } from '../rooms/storedSocket.ts';
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
export const LIVE_OPS = ['publish', 'ownerAway', 'ownerBack', 'watch', 'answer', 'leave', 'end', 'room', 'gift'] as const;
export type LiveOp = (typeof LIVE_OPS)[number];

/** A room event of a stream's chat, forwarded to the process holding the stream. */
const roomOpSchema = z.object({ roomId: z.string().min(1).max(100), event: z.string().min(1).max(32), payload: z.unknown() });

type Op = { event: string; schema: ZodType; run(caller: LiveCaller, payload: never): Promise<object | void> | object | void };

/**
 * The live events as run on the process holding the stream: parsed with the contract (again, when
 * another process forwarded them), authorised by the streams against the caller, and broadcast to
 * the stream's socket.io room, which the Redis adapter carries to viewers on every process.
 */
export function liveActions(
  getIo: () => AppIo | undefined,
  streams: LiveStreams,
  /** The room core that runs every stream's chat, once realtime exists. */
  chat: () => { rooms: RoomCore; ops: RoomOps } | undefined,
) {
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
      run: (c, { roomId, media }: { roomId: string; media: boolean }) => streams.watch(c.userId, c.viewerKey, roomId, c.address, media),
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
    // The chat's room events (join, post, delete, react…) of a socket on another process: the core runs them here.
    room: {
      event: 'room',
      schema: roomOpSchema,
      async run(c, { event, payload }: { event: string; payload: unknown }) {
        const core = chat();
        if (!core) throw new DomainError('unavailable', 'The chat is not ready yet.', 'unavailable');
        return core.ops.run(event, c.viewerKey, { userId: c.userId, username: c.username } as TokenUser, payload);
      },
    },
    gift: {
      event: liveEvents.gift,
      schema: liveGiftSchema,
      async run(c, { roomId, amount, idempotencyKey }: { roomId: string; amount: number; idempotencyKey: string }) {
        const { gold, live } = await streams.sendGift(c, roomId, amount, idempotencyKey);
        // Shown once per key (a retry is the same notice), hidden from those the giver blocked or was blocked by.
        if (live) await chat()?.rooms.notice(c, { roomId, clientId: `gift:${idempotencyKey}`, text: `sent ${amount} gold`, gift: amount });
        return { gold };
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
