import { z } from 'zod';
import { liveEvents } from '@parley/contract/live';
import { awaitedReplies } from '../realtime/replies.ts';
import type { Cluster } from '../realtime/cluster.ts';
import type { AppIo } from '../realtime/server.ts';
import type { Logger } from '../platform/logger.ts';
import { DomainError } from '../platform/errors.ts';
import { Refusal } from '../realtime/refusals.ts';
import type { DirectoryEntry, StreamDirectory } from './directory.ts';
import { LIVE_OPS, streamRoom, type LiveActions, type LiveCaller, type LiveOp } from './actions.ts';

/** How long a forwarded event waits for the process holding the stream. */
export const RELAY_TIMEOUT_MS = 5000;
/** How often a process checks that the holders of the streams its sockets watch are alive. */
export const HOLDER_CHECK_MS = 2000;

export type RelayAnswer = { ok: true; [k: string]: unknown } | { ok: false; message: string; code: string };

// The bus is between our own processes; its messages are still parsed, so a malformed one is dropped, not run.
const callSchema = z.object({
  to: z.string(),
  id: z.string(),
  from: z.string(),
  op: z.enum(LIVE_OPS),
  caller: z.object({
    userId: z.string().min(1),
    username: z.string(),
    viewerKey: z.string().min(1),
    address: z.string().max(64).optional(),
  }),
  payload: z.unknown(),
});
const replySchema = z.object({ to: z.string(), id: z.string(), answer: z.looseObject({ ok: z.boolean() }) });

export const streamEnded = () => new Refusal('This stream has ended.', 'stream_ended');

/** An error as the answer a socket's acknowledgement gets. */
export function answerOf(err: unknown, log: Logger, op: string): RelayAnswer {
  if (err instanceof DomainError || err instanceof Refusal) return { ok: false, message: err.message, code: err.code };
  log.error({ err, op }, 'forwarded live event failed');
  return { ok: false, message: 'Something went wrong on our side. Please try again.', code: 'internal' };
}

/**
 * Live events between API processes sharing one Redis: an event whose stream another process
 * holds goes there over the cluster bus (to the `node` the directory names), runs there as the
 * caller (the user this process authenticated), and its answer comes back. A holder that stops
 * answering is checked for a heartbeat: dead, its streams have ended for the viewers here.
 */
export function liveRelay(deps: {
  cluster: Cluster;
  directory: StreamDirectory;
  actions: LiveActions;
  getIo: () => AppIo | undefined;
  log: Logger;
  timeoutMs?: number;
}) {
  const { cluster, directory, actions, log } = deps;
  const node = cluster.instanceId;
  const timeoutMs = deps.timeoutMs ?? RELAY_TIMEOUT_MS;
  const replies = awaitedReplies<RelayAnswer>(timeoutMs);
  /** Streams held elsewhere that sockets of this process watch: their holder and start, and the viewer keys. */
  const watched = new Map<string, { entry: DirectoryEntry; keys: Set<string> }>();

  cluster.on('live:call', (d) => {
    const m = callSchema.safeParse(d);
    if (!m.success || m.data.to !== node) return;
    const { id, from, op, caller, payload } = m.data;
    void actions
      .run(op, caller, payload)
      .then(
        (answer): RelayAnswer => ({ ...answer, ok: true }),
        (err: unknown) => answerOf(err, log, op),
      )
      .then((answer) => cluster.publish('live:reply', { to: from, id, answer }));
  });
  cluster.on('live:reply', (d) => {
    const m = replySchema.safeParse(d);
    if (!m.success || m.data.to !== node) return;
    replies.answer(m.data.id, m.data.answer as RelayAnswer);
  });

  const holderAlive = async (entry: DirectoryEntry) => (await cluster.alive([entry.node])).has(entry.node);

  /** Tells this process's viewers of a stream whose holder died that it ended, and ends its directory card. */
  function holderDied(roomId: string, entry: DirectoryEntry) {
    watched.delete(roomId);
    const endedAt = Date.now();
    const io = deps.getIo();
    io?.local.to(streamRoom(roomId)).emit(liveEvents.ended, { roomId, startedAt: entry.startedAt, endedAt });
    io?.local.in(streamRoom(roomId)).socketsLeave(streamRoom(roomId));
    void directory.end({ ...entry, viewers: 0, endedAt }).catch((err: unknown) => log.warn({ err }, 'live directory write failed'));
  }

  const checker = setInterval(() => {
    const rooms = deps.getIo()?.of('/').adapter.rooms;
    for (const [roomId, w] of watched) {
      // Left, banned or ended: nobody here is in the stream's room any more.
      if (!rooms?.get(streamRoom(roomId))?.size) {
        watched.delete(roomId);
        continue;
      }
      holderAlive(w.entry)
        .then((alive) => {
          if (!alive && watched.get(roomId) === w) holderDied(roomId, w.entry);
        })
        .catch((err: unknown) => log.warn({ err }, 'live holder check failed'));
    }
  }, HOLDER_CHECK_MS);
  checker.unref();

  /** Runs `op` on the process holding the stream and waits for its answer. */
  async function call(entry: DirectoryEntry, op: LiveOp, caller: LiveCaller, payload: unknown): Promise<RelayAnswer> {
    const answer = await replies.ask((id) => cluster.publish('live:call', { to: entry.node, id, from: node, op, caller, payload }));
    if (answer) return answer;
    if (!(await holderAlive(entry))) {
      holderDied(entry.roomId, entry);
      throw streamEnded();
    }
    throw new Refusal('The stream did not answer in time. Try again.', 'timeout');
  }

  return {
    node,
    call,
    /** The directory's card of a stream held by another live process, or undefined (held here, or nowhere). */
    async holderOf(roomId: string): Promise<DirectoryEntry | undefined> {
      const e = await directory.get(roomId);
      return e && e.endedAt === undefined && e.node !== node ? e : undefined;
    },
    /** A socket here watches a stream held elsewhere: its disconnect is forwarded, its holder watched. */
    watching(entry: DirectoryEntry, viewerKey: string) {
      const w = watched.get(entry.roomId) ?? { entry, keys: new Set<string>() };
      w.keys.add(viewerKey);
      watched.set(entry.roomId, w);
    },
    /** The card of a stream held elsewhere that a socket here watches or broadcasts: where its chat runs. */
    known: (roomId: string): DirectoryEntry | undefined => watched.get(roomId)?.entry,
    stopped(roomId: string, viewerKey: string) {
      watched.get(roomId)?.keys.delete(viewerKey);
    },
    /** A socket of this process closed: it stops watching the streams other processes hold. */
    disconnected(caller: LiveCaller) {
      for (const [roomId, w] of watched) {
        if (!w.keys.delete(caller.viewerKey)) continue;
        void call(w.entry, 'leave', caller, { roomId }).catch((err: unknown) => log.warn({ err }, 'forwarded live leave failed'));
      }
    },
    close() {
      clearInterval(checker);
      replies.answerAll({ ok: false, message: 'The server is restarting. Try again.', code: 'unavailable' });
    },
  };
}

export type LiveRelay = ReturnType<typeof liveRelay>;
