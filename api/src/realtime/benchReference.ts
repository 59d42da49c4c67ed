import { z } from 'zod';
import type { Logger } from '../platform/logger.ts';
import { parseEvent, refuse, withAck } from './refusals.ts';
import type { AppIo } from './server.ts';
import { socketEvents } from './dispatch.ts';

/**
 * The benchmarks' reference: the same messages to the same sockets through plain socket.io rooms,
 * with no storage, no policy and no receipts, so a bench reports what the stored path costs beyond
 * socket.io itself in the same run. Registered only when BENCH_REFERENCE=1 (bench/lib/server.ts);
 * never in production.
 */
export const referenceEvents = { join: 'ref:join', post: 'ref:post', message: 'ref:message' } as const;

const joinSchema = z.object({ room: z.string().min(1).max(100) });
const postSchema = z.object({ room: z.string().min(1).max(100), text: z.string().max(4000), t: z.number() });

const refRoom = (room: string) => `ref:${room}`;

export function attachBenchReference(io: AppIo, log: Logger) {
  // A per-room counter stands in for a stored id, so the bench can tell lost deliveries apart.
  const lastId = new Map<string, number>();
  const events = socketEvents(io);
  events.on(referenceEvents.join, (socket, args) => {
    const { payload, ack } = withAck<{ ok: true }>(args);
    try {
      const { room } = parseEvent(joinSchema, payload);
      void socket.join(refRoom(room));
      ack?.({ ok: true });
    } catch (err) {
      refuse(socket, log, referenceEvents.join, err);
    }
  });
  events.on(referenceEvents.post, (socket, args) => {
    const { payload, ack } = withAck<{ ok: true; id: number }>(args);
    try {
      const { room, text, t } = parseEvent(postSchema, payload);
      const id = (lastId.get(room) ?? 0) + 1;
      lastId.set(room, id);
      io.to(refRoom(room)).emit(referenceEvents.message, { room, id, text, t });
      ack?.({ ok: true, id });
    } catch (err) {
      refuse(socket, log, referenceEvents.post, err);
    }
  });
}
