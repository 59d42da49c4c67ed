import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import type { Logger } from '../platform/logger.ts';
import { parseEvent, refuse, withAck } from './refusals.ts';
import type { AppIo } from './server.ts';
import { socketEvents } from './dispatch.ts';

/**
 * The benchmarks' references: the same messages to the same sockets through plain socket.io rooms,
 * with no policy and no receipts, so a bench reports what Parley's path costs beyond the plain
 * libraries in the same run. `ref:post` stores nothing; `ref:store` stores each message first the
 * way a plain app would (one awaited insert per message, then the fan-out), on the same database.
 * Registered only when BENCH_REFERENCE=1 (bench/lib/server.ts); never in production.
 */
export const referenceEvents = { join: 'ref:join', post: 'ref:post', store: 'ref:store', message: 'ref:message' } as const;

const joinSchema = z.object({ room: z.string().min(1).max(100) });
const postSchema = z.object({ room: z.string().min(1).max(100), text: z.string().max(4000), t: z.number() });

const refRoom = (room: string) => `ref:${room}`;

/** A plain chat's table: an id from a sequence, the room, the text and when; read by room and id. */
const CREATE_TABLE = [
  sql`create table if not exists bench_reference_messages (
    id bigserial primary key,
    room text not null,
    body text not null,
    sent_at timestamptz not null default now()
  )`,
  sql`create index if not exists bench_reference_messages_room on bench_reference_messages (room, id)`,
];

export async function attachBenchReference(io: AppIo, log: Logger, db: Db) {
  // Unlimited and unauthorised beyond the socket's own sign-in: said aloud, so it is never on unseen.
  log.warn("BENCH_REFERENCE=1: the benchmarks' ref: events are open to every socket (never set this in production)");
  for (const statement of CREATE_TABLE) await db.execute(statement);
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
  events.on(referenceEvents.store, (socket, args) => {
    const { payload, ack } = withAck<{ ok: true; id: number }>(args);
    void (async () => {
      const { room, text, t } = parseEvent(postSchema, payload);
      const r = await db.execute(sql`insert into bench_reference_messages (room, body) values (${room}, ${text}) returning id`);
      const id = Number((r as unknown as { rows: Array<{ id: string | number }> }).rows[0]!.id);
      io.to(refRoom(room)).emit(referenceEvents.message, { room, id, text, t, stored: true });
      ack?.({ ok: true, id });
    })().catch((err: unknown) => refuse(socket, log, referenceEvents.store, err));
  });
}
