import { z } from 'zod';
import type { TokenUser } from '@parley/contract/auth';
import { awaitedReplies } from '../realtime/replies.ts';
import type { Cluster } from '../realtime/cluster.ts';
import type { Logger } from '../platform/logger.ts';
import { DomainError, type Failure } from '../platform/errors.ts';
import { Refusal } from '../realtime/refusals.ts';
import type { Rooms } from './rooms.ts';
import { SharedRooms } from './sharedRooms.ts';
import type { RoomOps, RoomsElsewhere } from './storedSocket.ts';
import { isPairKind, PAIR_REFUSALS } from './pairPolicy.ts';

/** How long a forwarded room event waits for the process holding the chat's messages. */
export const PAIR_RELAY_TIMEOUT_MS = 5000;
/** A forwarded event that would go on further than this is refused as retryable (a chat handed over twice at once). */
const MAX_HOPS = 2;

// The bus is between our own processes; its messages are still parsed, so a malformed one is dropped, not run.
const callSchema = z.object({
  to: z.string(),
  id: z.string(),
  from: z.string(),
  event: z.string(),
  socketId: z.string().min(1),
  user: z.looseObject({ userId: z.string().min(1), username: z.string() }),
  payload: z.unknown(),
  /** Processes the event went through already (a chat handed over while it was on its way). */
  hops: z.number().int().min(0).max(MAX_HOPS).optional(),
});
const replySchema = z.object({
  to: z.string(),
  id: z.string(),
  answer: z.looseObject({ ok: z.boolean() }),
});
const FAILURES = [
  'invalid',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'too_many',
  'unavailable',
] as const satisfies readonly Failure[];
const refusalSchema = z.object({
  message: z.string(),
  code: z.string(),
  retryAfterS: z.number().optional(),
  // Kept so that an HTTP request checked by the holder answers the status it would have here.
  failure: z.enum(FAILURES).optional(),
});

type Answer = z.infer<typeof replySchema>['answer'];

const RESTARTING = { message: PAIR_REFUSALS.restarting, code: 'unavailable' } as const;

const roomIdOf = (payload: unknown) => {
  const roomId = (payload as { roomId?: unknown } | null)?.roomId;
  return typeof roomId === 'string' ? roomId : undefined;
};

/**
 * Scaled out, a 1:1 chat's two members may be in two processes: its messages are held in one (its
 * first member's) and the other member's room events run there, as that member, over the cluster
 * bus; their answers come back here. Fan-out crosses processes through socket.io's Redis adapter.
 * On close, events still waiting for the other process are answered at once (their pages resend).
 * An event the holder does not answer in time may find it dead: this process then takes the chat
 * over (its held messages died with that process) and the event runs where the chat is held now.
 */
export function pairRelay(deps: {
  cluster: Cluster;
  rooms: Rooms;
  ops: () => RoomOps;
  log: Logger;
  timeoutMs?: number;
  /** Chats moving between processes (rooms/handOver.ts): their events wait, then run where the chat is held. */
  handOver?: { pending(roomId: string): Promise<void> | undefined };
}) {
  const { cluster, rooms, log } = deps;
  const node = cluster.instanceId;
  const timeoutMs = deps.timeoutMs ?? PAIR_RELAY_TIMEOUT_MS;
  const replies = awaitedReplies<Answer>(timeoutMs);
  let closed = false;

  cluster.on('pair:call', (d) => {
    const m = callSchema.safeParse(d);
    if (!m.success || m.data.to !== node) return;
    const { id, from, event, socketId, user, payload, hops = 0 } = m.data;
    const roomId = roomIdOf(payload);
    const run = async () => {
      if (roomId !== undefined) await deps.handOver?.pending(roomId);
      // Handed over since the asker last heard: the event goes on to where the chat is held now.
      if (roomId !== undefined && holderElsewhere(roomId) !== undefined)
        return forward(roomId, event, socketId, user as TokenUser, payload, hops + 1);
      return deps.ops().run(event, socketId, user as TokenUser, payload);
    };
    void run()
      .then(
        (answer): Answer => ({ ...answer, ok: true }),
        (err: unknown): Answer => {
          if (err instanceof DomainError)
            return {
              ok: false,
              message: err.message,
              code: err.code,
              failure: err.failure,
              ...(err.retryAfterS !== undefined && { retryAfterS: err.retryAfterS }),
            };
          if (err instanceof Refusal) return { ok: false, message: err.message, code: err.code };
          log.error({ err, event }, 'forwarded chat event failed');
          return { ok: false, message: 'Something went wrong on our side. Please try again.', code: 'internal' };
        },
      )
      .then((answer) => cluster.publish('pair:reply', { to: from, id, answer }));
  });
  cluster.on('pair:reply', (d) => {
    const m = replySchema.safeParse(d);
    if (!m.success || m.data.to !== node) return;
    replies.answer(m.data.id, m.data.answer);
  });

  const holderElsewhere = (roomId: string) => {
    if (!isPairKind(rooms.kindOf(roomId))) return undefined;
    const holder = rooms.holderOf(roomId);
    return holder !== undefined && holder !== node ? holder : undefined;
  };

  const ask = (to: string, event: string, socketId: string, user: TokenUser, payload: unknown, hops: number) =>
    replies.ask((id) => cluster.publish('pair:call', { to, id, from: node, event, socketId, user, payload, hops }));

  async function forward(
    roomId: string,
    event: string,
    socketId: string,
    user: TokenUser,
    payload: unknown,
    hops: number,
  ): Promise<object> {
    const moving = deps.handOver?.pending(roomId);
    if (moving) await moving;
    const to = holderElsewhere(roomId);
    if (!to) {
      // The chat moved here (handed to this process), or its hand-over did not happen.
      if (rooms.holderOf(roomId) === node) return deps.ops().run(event, socketId, user, payload);
      throw new Refusal(PAIR_REFUSALS.notInChat, 'not_in_room');
    }
    if (closed || hops > MAX_HOPS) throw new Refusal(RESTARTING.message, RESTARTING.code);
    let answer = await ask(to, event, socketId, user, payload, hops);
    if (!answer && !closed && rooms instanceof SharedRooms) {
      // No answer: when its process died, the chat is held here (or by whoever took it over first) from now on.
      const holder = await rooms.takeOver(roomId);
      if (holder === node) return deps.ops().run(event, socketId, user, payload);
      if (holder !== undefined && holder !== to) answer = await ask(holder, event, socketId, user, payload, hops);
    }
    if (!answer) throw new Refusal('The chat did not answer in time. Try again.', 'timeout');
    const { ok, ...rest } = answer;
    if (ok) return rest;
    const r = refusalSchema.safeParse(rest);
    if (!r.success) throw new Refusal('Something went wrong on our side. Please try again.', 'internal');
    throw new DomainError(r.data.failure ?? 'invalid', r.data.message, r.data.code, r.data.retryAfterS);
  }

  const elsewhere: RoomsElsewhere & { close(): void } = {
    holds: (roomId) => deps.handOver?.pending(roomId) !== undefined || holderElsewhere(roomId) !== undefined,
    run: (roomId, event, socketId, user, payload) => forward(roomId, event, socketId, user, payload, 0),
    close() {
      closed = true;
      replies.answerAll({ ok: false, ...RESTARTING });
    },
  };
  return elsewhere;
}
