import { liveEvents } from '@parley/contract/live';
import type { DirectoryEntry } from './directory.ts';
import type { AppIo, AppSocket } from '../realtime/server.ts';
import { socketEmitter } from '../realtime/emit.ts';
import { socketEvents } from '../realtime/dispatch.ts';
import type { Logger } from '../platform/logger.ts';
import { DomainError } from '../platform/errors.ts';
import { Refusal, refuseWithAck, withAck } from '../realtime/refusals.ts';
import type { Limiter } from '../platform/rateLimit.ts';
import type { LiveOutbox, LiveStreams } from './streams.ts';
import { streamRoom, type LiveActions, type LiveCaller, type LiveOp } from './actions.ts';
import type { LiveRelay } from './relay.ts';

export { streamRoom };

/** A viewer's video that did not connect before its offer expired. */
export const VIDEO_CONNECT_TIMED_OUT = 'The video did not connect in time. Reload the stream to try again.';

/** The streams' outbox over socket.io; with the Redis adapter, rooms and socket ids reach every process. */
export function liveOutbox(getIo: () => AppIo | undefined, chatEnded: (roomId: string) => void = () => undefined): LiveOutbox {
  return {
    viewers: (roomId, viewers) => getIo()?.to(streamRoom(roomId)).emit(liveEvents.viewers, { roomId, viewers }),
    ended(roomId, startedAt, endedAt) {
      const io = getIo();
      if (!io) return;
      io.to(streamRoom(roomId)).emit(liveEvents.ended, { roomId, startedAt, endedAt });
      io.in(streamRoom(roomId)).socketsLeave(streamRoom(roomId));
      chatEnded(roomId);
    },
    dropped(viewerKey, roomId) {
      const io = getIo();
      io?.to(viewerKey).emit(liveEvents.dropped, { roomId });
      io?.in(viewerKey).socketsLeave(streamRoom(roomId));
    },
    expired(viewerKey, roomId) {
      const io = getIo();
      if (!io) return;
      // The viewer's socket may live in another process: the refusal is worded where it is held.
      socketEmitter(io).refuse(viewerKey, { event: liveEvents.watch, code: 'offer_expired', message: VIDEO_CONNECT_TIMED_OUT });
      io.in(viewerKey).socketsLeave(streamRoom(roomId));
    },
  };
}

/** The address a socket connected from, read through TRUST_PROXY's hops (realtime/server.ts). */
export function socketAddress(socket: AppSocket): string {
  return socket.data.address ?? socket.handshake.address;
}

/** A domain error as a socket refusal the page can show. */
const asRefusal = (err: unknown) => (err instanceof DomainError ? new Refusal(err.message, err.code) : err);

/**
 * Thin socket handlers of live streams: parse with the contract, check the caller's allowance,
 * then run the event where the stream is held (here, or through the relay on another process)
 * and answer in the acknowledgement. Who may do what is decided in `streams.ts`, against the
 * authenticated `socket.data.user`, never against the payload.
 */
export function attachLiveSockets(
  io: AppIo,
  streams: LiveStreams,
  actions: LiveActions,
  relay: LiveRelay | undefined,
  log: Logger,
  limits: { joins: Limiter; gifts: Limiter },
  addressOf: (socket: AppSocket) => string | undefined = () => undefined,
) {
  const { joins, gifts } = limits;
  // Which stream each broadcaster's socket owns: the stream ends when that connection closes.
  const owners = new Map<string, string>();
  // The same for streams another process holds: by socket, and by user for their page's reconnection here.
  const remoteOwners = new Map<string, DirectoryEntry>();
  const remoteOwned = new Map<string, DirectoryEntry>();

  const events = socketEvents(io);
  const callerOf = (socket: AppSocket): LiveCaller => {
    const user = socket.data.user;
    return { userId: user.userId, username: user.username, viewerKey: socket.id, address: addressOf(socket) };
  };
  /** Runs `op` on the process holding the stream, as this socket's user; a refusal there is one here. */
  const forward = async (socket: AppSocket, holder: DirectoryEntry, op: LiveOp, payload: unknown) => {
    const { ok: _ok, ...answer } = await relay!.call(holder, op, callerOf(socket), payload).then((a) => {
      if (!a.ok) throw new Refusal(a.message, a.code);
      return a;
    });
    return answer;
  };

  io.on('connection', (socket: AppSocket) => {
    const user = socket.data.user;
    // A broadcaster's page that reconnected owns its stream again, and hears its chat.
    const own = streams.ownerReturned(user.userId);
    if (own) {
      owners.set(socket.id, own);
      void socket.join(streamRoom(own));
    }
    const ownElsewhere = remoteOwned.get(user.userId);
    if (ownElsewhere)
      void forward(socket, ownElsewhere, 'ownerBack', { roomId: ownElsewhere.roomId }).then(
        () => {
          remoteOwners.set(socket.id, ownElsewhere);
          relay!.watching(ownElsewhere, socket.id);
          return socket.join(streamRoom(ownElsewhere.roomId));
        },
        () => remoteOwned.delete(user.userId),
      );
  });

  type Step = (socket: AppSocket) => Promise<void>;
  type After = (socket: AppSocket, roomId: string, holder: DirectoryEntry | undefined) => Promise<void> | void;
  /** Runs `op` where its stream is held; `after` runs here once it succeeded (this socket's rooms), with the holder when remote. */
  const routed = (op: LiveOp, before?: Step, after?: After) => {
    const event = actions.ops[op].event;
    events.on(event, (socket, args) => {
      const { payload, ack } = withAck<unknown>(args);
      const run = async () => {
        const { roomId } = actions.parse(op, payload);
        await before?.(socket);
        const holder = streams.holds(roomId) ? undefined : await relay?.holderOf(roomId);
        const answer = holder ? await forward(socket, holder, op, payload) : await actions.run(op, callerOf(socket), payload);
        await after?.(socket, roomId, holder);
        return answer;
      };
      run().then(
        (answer) => ack?.({ ...answer, ok: true }),
        (err: unknown) => refuseWithAck(socket, log, event, asRefusal(err), ack as never),
      );
    });
  };
  // Joining starts a peer connection on the stream's server: a loop of joins must not exhaust it.
  const allowJoin: Step = async (socket) => {
    const take = await joins.take(socket.data.user.userId);
    if (!take.ok) throw new Refusal(`Too many attempts to join. Wait ${take.retryAfterS} s and try again.`, 'rate_limited');
  };
  const allowGift: Step = async (socket) => {
    const take = await gifts.take(socket.data.user.userId);
    if (!take.ok) throw new Refusal(`You are sending gifts too fast. Wait ${take.retryAfterS} s.`, 'rate_limited');
  };

  // The broadcaster's peer connection goes to the SFU of the process that made the stream.
  routed('publish', allowJoin, async (socket, roomId, holder) => {
    if (holder) {
      remoteOwners.set(socket.id, holder);
      remoteOwned.set(socket.data.user.userId, holder);
      // Its chat runs where the stream is held, as its viewers' does.
      relay!.watching(holder, socket.id);
    } else owners.set(socket.id, roomId);
    await socket.join(streamRoom(roomId));
  });
  routed('watch', allowJoin, async (socket, roomId, holder) => {
    await socket.join(streamRoom(roomId));
    if (holder) relay!.watching(holder, socket.id);
  });
  routed('answer');
  routed('leave', undefined, async (socket, roomId, holder) => {
    if (holder) relay!.stopped(roomId, socket.id);
    await socket.leave(streamRoom(roomId));
  });
  routed('end', undefined, (socket, _roomId, holder) => {
    if (holder) remoteOwned.delete(socket.data.user.userId);
  });
  routed('gift', allowGift);

  events.onDisconnect((socket) => {
    const { userId } = socket.data.user;
    streams.disconnected(socket.id, userId, (roomId) => owners.get(socket.id) === roomId);
    relay?.disconnected(callerOf(socket));
    owners.delete(socket.id);
    const held = remoteOwners.get(socket.id);
    remoteOwners.delete(socket.id);
    if (held)
      void forward(socket, held, 'ownerAway', { roomId: held.roomId }).catch((err: unknown) =>
        log.warn({ err }, 'forwarded owner away failed'),
      );
  });
}
