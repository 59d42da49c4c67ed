import { z } from 'zod';
import type { TokenUser } from '@parley/contract/auth';
import { awaitedReplies } from '../realtime/replies.ts';
import type { Cluster } from '../realtime/cluster.ts';
import type { Logger } from '../platform/logger.ts';
import { DomainError } from '../platform/errors.ts';
import { Refusal } from '../realtime/refusals.ts';
import type { Rooms } from './rooms.ts';
import { SharedRooms } from './sharedRooms.ts';
import type { RoomOps, RoomsElsewhere } from './storedSocket.ts';
import { isPairKind, PAIR_REFUSALS } from './pairPolicy.ts';

/** How long a forwarded room event waits for the process holding the chat's messages. */
export const PAIR_RELAY_TIMEOUT_MS = 5000;

// The bus is between our own processes; its messages are still parsed, so a malformed one is dropped, not run.
const callSchema = z.object({
  to: z.string(),
  id: z.string(),
  from: z.string(),
  event: z.string(),
  socketId: z.string().min(1),
  user: z.looseObject({ userId: z.string().min(1), username: z.string() }),
  payload: z.unknown(),
});
const replySchema = z.object({
  to: z.string(),
  id: z.string(),
  answer: z.looseObject({ ok: z.boolean() }),
});
const refusalSchema = z.object({ message: z.string(), code: z.string(), retryAfterS: z.number().optional() });

type Answer = z.infer<typeof replySchema>['answer'];

const RESTARTING = { message: 'The server is restarting. Try again.', code: 'unavailable' } as const;

/**
 * Scaled out, a 1:1 chat's two members may be in two processes: its messages are held in one (its
 * first member's) and the other member's room events run there, as that member, over the cluster
 * bus; their answers come back here. Fan-out crosses processes through socket.io's Redis adapter.
 * On close, events still waiting for the other process are answered at once (their pages resend).
 * An event the holder does not answer in time may find it dead: this process then takes the chat
 * over (its held messages died with that process) and the event runs where the chat is held now.
 */
export function pairRelay(deps: { cluster: Cluster; rooms: Rooms; ops: () => RoomOps; log: Logger; timeoutMs?: number }) {
  const { cluster, rooms, log } = deps;
  const node = cluster.instanceId;
  const timeoutMs = deps.timeoutMs ?? PAIR_RELAY_TIMEOUT_MS;
  const replies = awaitedReplies<Answer>(timeoutMs);
  let closed = false;

  cluster.on('pair:call', (d) => {
    const m = callSchema.safeParse(d);
    if (!m.success || m.data.to !== node) return;
    const { id, from, event, socketId, user, payload } = m.data;
    void deps
      .ops()
      .run(event, socketId, user as TokenUser, payload)
      .then(
        (answer): Answer => ({ ...answer, ok: true }),
        (err: unknown): Answer => {
          if (err instanceof DomainError)
            return {
              ok: false,
              message: err.message,
              code: err.code,
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

  const ask = (to: string, event: string, socketId: string, user: TokenUser, payload: unknown) =>
    replies.ask((id) => cluster.publish('pair:call', { to, id, from: node, event, socketId, user, payload }));

  const elsewhere: RoomsElsewhere & { close(): void } = {
    holds: (roomId) => holderElsewhere(roomId) !== undefined,
    async run(roomId, event, socketId, user, payload) {
      const to = holderElsewhere(roomId);
      if (!to) throw new Refusal(PAIR_REFUSALS.notInChat, 'not_in_room');
      if (closed) throw new Refusal(RESTARTING.message, RESTARTING.code);
      let answer = await ask(to, event, socketId, user, payload);
      if (!answer && !closed && rooms instanceof SharedRooms) {
        // No answer: when its process died, the chat is held here (or by whoever took it over first) from now on.
        const holder = await rooms.takeOver(roomId);
        if (holder === node) return deps.ops().run(event, socketId, user, payload);
        if (holder !== undefined && holder !== to) answer = await ask(holder, event, socketId, user, payload);
      }
      if (!answer) throw new Refusal('The chat did not answer in time. Try again.', 'timeout');
      const { ok, ...rest } = answer;
      if (ok) return rest;
      const r = refusalSchema.safeParse(rest);
      if (!r.success) throw new Refusal('Something went wrong on our side. Please try again.', 'internal');
      throw new DomainError('invalid', r.data.message, r.data.code, r.data.retryAfterS);
    },
    close() {
      closed = true;
      replies.answerAll({ ok: false, ...RESTARTING });
    },
  };
  return elsewhere;
}
