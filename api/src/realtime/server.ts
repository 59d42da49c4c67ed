import type * as RedisAdapter from '@socket.io/redis-adapter';
import http from 'node:http';
import type net from 'node:net';
import { Server, type Socket } from 'socket.io';
import { PacketType } from 'socket.io-parser';
import type { TokenUser } from '@parley/contract/auth';
import { ONLINE_PAGES_BURST, ONLINE_PAGES_PER_S, onlineUsersMoreSchema, presenceEvents, type OnlineUser } from '@parley/contract/presence';
import { authEvents, type SessionEnd } from '@parley/contract/auth';
import { MESSAGE_MAX_BYTES } from '@parley/contract/constants';
import { chatEvents, type SocketError } from '@parley/contract/matchmaking';
import {
  connectionEvents,
  isSupportedProtocol,
  PROTOCOL_OUTDATED,
  PROTOCOL_OUTDATED_MESSAGE,
  RESTART_RECONNECT_WITHIN_MS,
  type ConnectRefusal,
  type Restarting,
} from '@parley/contract/protocol';
import { publicUrl } from '../platform/config.ts';
import { closeRedis, publisherUntil } from '../platform/redis.ts';
import { lazyRequire } from '../platform/lazyRequire.ts';
import { forwardedClient } from '../platform/address.ts';
import type { PlatformDeps } from '../deps.ts';
import { coalesceFlushes } from './coalesce.ts';
import { socketEvents } from './dispatch.ts';
import { inSocketLanguage, parseEvent, refuse, Refusal } from './refusals.ts';
import { createInProcessPresence, type Presence } from './presence.ts';
import { PresenceBroadcaster, type FriendIds } from './presenceBroadcast.ts';
import { messageRateLimit, SOCKET_FRAMES_BURST, SOCKET_FRAMES_PER_S, TokenBucket, userFrameBudgets } from './eventRateLimit.ts';
import { redisPresence } from './redisPresence.ts';
import { presenceSent, refusalsCounted } from '../platform/metrics.ts';
import { relayRefusals } from './emit.ts';
import { localeFromHeader } from '../platform/i18n/i18n.ts';
import type { UiLocale } from '@parley/contract/locales';

export type SocketData = {
  user: TokenUser;
  sid?: string | undefined;
  /** The realtime protocol version the client speaks (handshake `auth.protocol`, contract/src/protocol.ts). */
  protocol: number;
  /** The page's id (handshake query `tab`), when it sent one. */
  tab?: string | undefined;
  /** Set on a socket that a reconnection of its own page replaced: its connection had dropped. */
  replaced?: boolean;
  /** Set on a socket told to reconnect to another replica (this one drains): it is moving, not leaving. */
  restarting?: boolean;
  /** Invalid events in the current window (reportInvalid). */
  invalid?: { count: number; since: number };
  /** The language the page shows (handshake `auth.locale`, else its Accept-Language): refusals are worded in it. */
  locale?: UiLocale | null;
  /** The client's address, read as HTTP requests read it (TRUST_PROXY hops; platform/address.ts). */
  address?: string;
};

/**
 * The largest valid frame: a chat message of MESSAGE_MAX_BYTES, whose JSON is at most twice its
 * UTF-8 size once control characters are refused, plus its envelope. A larger frame closes the
 * connection before it is parsed.
 */
export const MAX_FRAME_BYTES = 2 * MESSAGE_MAX_BYTES + 8 * 1024;
/**
 * Bytes one socket may send, as a token bucket: above what the message allowance lets a person
 * send (10 messages of 64 KiB a second, 20 at once), far below what would slow everyone else down.
 */
export const SOCKET_BYTES_PER_S = 768 * 1024;
export const SOCKET_BYTES_BURST = 2 * 1024 * 1024;
/** What a socket is told when it is cut for sending too many frames. */
export const TOO_MANY_FRAMES = 'This connection sent too many events too quickly and was closed. Reload the page to continue.';

/**
 * Cuts a connection that sends more bytes than SOCKET_BYTES_PER_S allows (burst SOCKET_BYTES_BURST),
 * or more frames than its own frame budget or its user's (eventRateLimit.ts) allows: told why
 * (`chat:error`, code `rate_limited`), then disconnected. Runs for every packet before it is
 * decoded, so it allocates nothing; once the socket is cut, engine.io drops what else it sent.
 */
function budgets(socket: AppSocket, userFrames: TokenBucket) {
  const now = performance.now();
  const bytes = new TokenBucket(SOCKET_BYTES_PER_S, SOCKET_BYTES_BURST, now);
  const frames = new TokenBucket(SOCKET_FRAMES_PER_S, SOCKET_FRAMES_BURST, now);
  let cut = false;
  socket.conn.on('packet', (packet: { data?: unknown }) => {
    if (cut) return;
    const d = packet.data;
    const size = typeof d === 'string' ? d.length : Buffer.isBuffer(d) ? d.length : 0;
    const t = performance.now();
    if (!bytes.spend(t, size)) {
      cut = true;
      socket.disconnect(true);
      return;
    }
    // Both buckets are charged, so a flood drains its user's budget even while its own lasts.
    const socketOk = frames.spend(t, 1);
    if (userFrames.spend(t, 1) && socketOk) return;
    cut = true;
    const refused: SocketError = { event: 'socket', message: TOO_MANY_FRAMES, code: 'rate_limited' };
    socket.emit(chatEvents.error, inSocketLanguage(socket, refused));
    socket.disconnect(true);
  });
}

/**
 * The handshake's refusal of a client too old to understand this server (contract/src/protocol.ts):
 * socket.io hands `data` to the client's connect_error, and the PWA asks its user to reload.
 */
function protocolOutdated(): Error & { data: ConnectRefusal } {
  return Object.assign(new Error(PROTOCOL_OUTDATED_MESSAGE), { data: { code: PROTOCOL_OUTDATED } as const });
}

/** Handshake query `tab`: the page's id for its connection, so a reconnection replaces the old socket. */
const TAB_ID = /^[A-Za-z0-9_-]{8,64}$/;
/**
 * Open sockets per user in one process: every connection costs a chat session and a page of the
 * online list, so one account cannot open thousands. Far above any real number of tabs.
 */
export const MAX_SOCKETS_PER_USER = 20;
// Incoming payloads are unknown until a contract schema has parsed them, per event.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Events = Record<string, (...args: any[]) => void>;
/** Between API processes, through the adapter's serverSideEmit (Redis). */
type ServerSideEvents = {
  'parley:ended': (ended: Ended) => void;
  'parley:refusal': (refusal: { id: string; error: SocketError }) => void;
};
export type AppSocket = Socket<Events, Events, ServerSideEvents, SocketData>;
export type AppIo = Server<Events, Events, ServerSideEvents, SocketData>;

export type Realtime = {
  io: AppIo;
  presence: Presence;
  /** Ends every socket of a user on purpose (ban): `session:end` {reason}, then disconnect. */
  endSession(userId: string, reason: string): Promise<void>;
  /**
   * Ends the sockets of one sign-in (the refresh-token family named by the access token's `sid`:
   * one browser's tabs) on purpose: signed out there, or its refresh token was stolen.
   */
  endSignIn(sid: string, reason: string): Promise<void>;
  /**
   * Calls `listener` whenever a user's sessions or a sign-in are ended on purpose, in this process
   * or (with Redis) any other: what outlives the sockets (a chat held for a dropped page) ends too.
   */
  onEnded(listener: (ended: Ended) => void): void;
  /** Emits to every socket of a user, in any process. */
  toUser(userId: string, event: string, payload: unknown): void;
  /** Calls `listener` when a user's first socket in this process connects (online) or their last one leaves. */
  onPresence(listener: (userId: string, online: boolean) => void): void;
  /**
   * The process drains: new connections are refused, and every socket here is told to reconnect
   * (to another replica) and counts as dropped, so what it was in is held for its page. Resolves
   * once they all went; those still here after RESTART_RECONNECT_WITHIN_MS and a margin (a build
   * that does not know the notice) have their connection closed, and reconnect as after a drop.
   */
  moveAll(): Promise<void>;
  /**
   * The process drains: a new connection's first request is answered 503, so the proxy tries
   * another replica (deploy/nginx: proxy_next_upstream http_503); sockets already here stay.
   */
  stopAccepting(): void;
  close(): Promise<void>;
};

/** What a restarting server waits beyond RESTART_RECONNECT_WITHIN_MS for its sockets to leave by themselves. */
const MOVE_MARGIN_MS = 1000;

/** Who was ended on purpose: every session of a user (ban), or one sign-in (sign-out, theft). */
export type Ended = { userId: string } | { sid: string };

/** The socket.io room of every socket of a user, in any process. */
export const userRoom = (userId: string) => `user:${userId}`;
const signInRoom = (sid: string) => `signin:${sid}`;
const tabRoom = (userId: string, tab: string) => `tab:${userId}:${tab}`;
const PRESENCE_ROOM = 'presence';
/**
 * A broadcast to every socket writes to each of them in one synchronous loop (thousands of
 * writes: tens of milliseconds during which no chat message moves). Presence subscribers are
 * spread over this many rooms, and a broadcast goes out one room per event-loop turn.
 */
const PRESENCE_SLICES = 32;
const SNAPSHOTS_PER_TURN = 8;
/** Deltas are a few users each: more sockets a turn, so one is out well before the next interval's. */
const DELTAS_PER_TURN = 64;

/**
 * socket.io on the API's HTTP server. The handshake must carry a supported protocol version
 * (`auth.protocol`) and a valid access token (`auth.token`) whose user is the `userId` of the
 * query; every later event is authorised against `socket.data.user`, never against what a payload claims.
 */
export function createRealtime(
  httpServer: http.Server,
  deps: PlatformDeps,
  /** The ids of the friends of each user, who come first on their first page of the online list (the people area's). */
  friendIdsOf?: FriendIds,
): Realtime {
  // Scaled out, presence lives in Redis (realtime/redisPresence.ts); changes in other processes come over the bus.
  const cluster = deps.cluster;
  const shared = cluster ? redisPresence(cluster) : undefined;
  const presence: Presence = shared ?? createInProcessPresence();
  const origin = new URL(publicUrl(deps.cfg)).origin;
  const io: AppIo = new Server(httpServer, {
    path: '/socket.io',
    cors: { origin, credentials: true },
    maxHttpBufferSize: MAX_FRAME_BYTES,
    pingInterval: 10_000,
    pingTimeout: 8_000,
    serveClient: false,
    // Chat payloads are small and mostly unique; compressing them costs more CPU than it saves.
    perMessageDeflate: false,
  });

  // One write per socket and event-loop turn (coalesce.ts).
  io.engine.on('connection', coalesceFlushes);
  // Every area's socket events go through one table (dispatch.ts); this area's hooks run first.
  const events = socketEvents(io);

  // Set by close(): emits spread over event-loop turns stop there, and the adapter publishes no more.
  let closed = false;
  let sub: PlatformDeps['redis'];
  if (deps.redis) {
    sub = deps.redis.duplicate();
    const { createAdapter } = lazyRequire('@socket.io/redis-adapter') as typeof RedisAdapter;
    // Under the deployment's key prefix, so deployments (and test runs) sharing one Redis stay apart.
    // A request to every process (fetchSockets) fails after requestsTimeout when one of them is
    // exiting: short, so that who asked can ask again (rooms/sharedRooms.ts).
    io.adapter(
      createAdapter(
        publisherUntil(deps.redis, () => closed),
        sub,
        { key: `${deps.cfg.REDIS_KEY_PREFIX}socket.io`, requestsTimeout: 1500 },
      ),
    );
    relayRefusals(io);
  }

  const socketsPerUser = new Map<string, number>();
  let draining = false;
  // Before the handshake: a request without a session id opens a new connection.
  io.engine.use((req: http.IncomingMessage, res: http.ServerResponse | { socket: net.Socket }, next: (err?: unknown) => void) => {
    if (!draining || new URL(req.url ?? '/', 'http://x').searchParams.has('sid')) return next();
    if (res instanceof http.ServerResponse) {
      res.writeHead(503, { 'content-type': 'text/plain', connection: 'close', 'retry-after': '1' });
      res.end('Server restarting');
    } else {
      // A WebSocket upgrade: its socket is answered directly.
      res.socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n');
    }
  });
  io.use((socket, next) => {
    // Draining: the client retries, and the proxy sends it to a replica that stays.
    if (draining) return next(new Error('Server restarting'));
    const auth = socket.handshake.auth as { token?: unknown; protocol?: unknown; locale?: unknown };
    // Before the token: an old build would otherwise renew its token and retry, to be refused again.
    const { protocol } = auth;
    if (!isSupportedProtocol(protocol)) return next(protocolOutdated());
    const token = typeof auth.token === 'string' ? auth.token : undefined;
    const { userId: claimed, tab } = socket.handshake.query;
    if (typeof claimed !== 'string') return next(new Error('Unauthorized'));
    if (tab !== undefined && (typeof tab !== 'string' || !TAB_ID.test(tab))) return next(new Error('Invalid tab id'));
    deps.tokens
      .verifySession(token)
      .then((session) => {
        if (!session || claimed !== session.user.userId) return next(new Error('Unauthorized'));
        const { userId } = session.user;
        if (typeof tab === 'string') {
          // The page reconnected (its network dropped): its old socket may linger until its ping
          // times out, with its search or chat. It goes now, in whichever process holds it,
          // marked as replaced: its chat is held for this page to resume (rooms/rooms.ts).
          // This process's at once; with the Redis adapter the others' through it (its own part of
          // that runs after the publish, when this socket may be in the room: it is excepted).
          for (const id of io.sockets.adapter.rooms.get(tabRoom(userId, tab)) ?? []) {
            const old = io.sockets.sockets.get(id);
            if (!old) continue;
            old.data.replaced = true;
            old.disconnect(true);
          }
          if (deps.redis) io.in(tabRoom(userId, tab)).except(socket.id).disconnectSockets(true);
        }
        if ((socketsPerUser.get(userId) ?? 0) >= MAX_SOCKETS_PER_USER) return next(new Error('Too many connections'));
        socket.data.user = session.user;
        socket.data.sid = session.sid;
        socket.data.protocol = protocol;
        const forwarded = socket.handshake.headers['x-forwarded-for'];
        socket.data.address = forwardedClient(
          socket.handshake.address,
          Array.isArray(forwarded) ? forwarded.join(',') : forwarded,
          deps.cfg.TRUST_PROXY,
        );
        if (typeof tab === 'string') socket.data.tab = tab;
        const header = socket.handshake.headers['accept-language'];
        socket.data.locale = (typeof auth.locale === 'string' && localeFromHeader(auth.locale)) || localeFromHeader(header);
        // The bearer token is not needed past this point; a socket lives for hours and its
        // handshake would otherwise hold a live credential (and ~0.5 kB) all that time.
        socket.handshake.auth = {};
        next();
      })
      .catch(next);
  });

  let connections = 0;
  const slice = (room: string, i: number) => `${room}:${i}`;
  const slices = (room: string) => Array.from({ length: PRESENCE_SLICES }, (_, i) => slice(room, i));
  /** Emits to each target (a room, or a group of socket ids) in turn, one per event-loop turn. */
  const emitInTurns = (targets: Array<string | string[]>, ev: string, payload: unknown) => {
    let i = 0;
    const next = () => {
      if (closed || i >= targets.length) return;
      io.local.to(targets[i++]!).emit(ev, payload);
      setImmediate(next);
    };
    next();
  };
  /**
   * One payload to many of this process's own sockets, a few per event-loop turn, encoded once as
   * socket.io's broadcasts are. (`io.to(ids).emit()` per group would encode the payload again for
   * each group and, with the Redis adapter, publish it to every other process as well.)
   */
  const sendInTurns = (socketIds: string[], perTurn: number, ev: string, payload: unknown) => {
    const encoded = io.encoder.encode({ type: PacketType.EVENT, nsp: '/', data: [ev, payload] });
    let i = 0;
    const next = () => {
      if (closed) return;
      for (const id of socketIds.slice(i, (i += perTurn))) io.sockets.sockets.get(id)?.client._packet(encoded, { preEncoded: true });
      if (i < socketIds.length) setImmediate(next);
    };
    next();
  };
  const broadcaster = new PresenceBroadcaster(
    presence,
    {
      firstPage: (socketIds, page) => {
        presenceSent('first_page', socketIds.length);
        sendInTurns(socketIds, SNAPSHOTS_PER_TURN, presenceEvents.onlineUsers, page);
      },
      // Every process tells its own sockets (each hears of every change), so not through the adapter.
      count: (count) => {
        presenceSent('count', io.engine.clientsCount);
        emitInTurns(slices(PRESENCE_ROOM), presenceEvents.onlineUsersDelta, { added: [], removed: [], count });
      },
      delta: (socketIds, delta) => {
        presenceSent('delta', socketIds.length);
        sendInTurns(socketIds, DELTAS_PER_TURN, presenceEvents.onlineUsersDelta, delta);
      },
    },
    (err) => deps.log.error({ err }, 'presence broadcast failed'),
    friendIdsOf,
  );

  // Pages of the online list, per user (all tabs share it).
  const pageLimit = refusalsCounted('online-pages', messageRateLimit(ONLINE_PAGES_PER_S, ONLINE_PAGES_BURST));
  const userFrames = userFrameBudgets();
  const presenceListeners = new Set<(userId: string, online: boolean) => void>();
  const presenceChanged = (userId: string, online: boolean) => {
    for (const l of presenceListeners) l(userId, online);
  };
  type PresenceNews = { user: OnlineUser; online: true } | { userId: string; online: false };
  let reaper: NodeJS.Timeout | undefined;
  if (cluster && shared) {
    // A user coming online or going in another process changes what every process's clients hold.
    cluster.on('presence', (d, from) => {
      const n = d as Partial<{ online: unknown; userId: unknown; user: Partial<OnlineUser> }> | null;
      if (from === cluster.instanceId) return;
      if (
        n?.online === true &&
        typeof n.user?.userId === 'string' &&
        typeof n.user.username === 'string' &&
        typeof n.user.avatar === 'string'
      )
        broadcaster.userOnline({ userId: n.user.userId, username: n.user.username, avatar: n.user.avatar });
      else if (n?.online === false && typeof n.userId === 'string') broadcaster.userOffline(n.userId);
    });
    // The users of a process that died go offline everywhere once its heartbeat has expired.
    reaper = setInterval(() => {
      shared
        .reap()
        .then((offline) => {
          for (const userId of offline) {
            broadcaster.userOffline(userId);
            cluster.publish('presence', { userId, online: false } satisfies PresenceNews);
          }
        })
        .catch((err: unknown) => deps.log.error({ err }, 'presence reap failed'));
    }, 1000);
    reaper.unref();
  }
  const tellCluster = (news: PresenceNews) => cluster?.publish('presence', news);
  io.on('connection', (socket: AppSocket) => {
    // socket.handshake holds what is needed of the upgrade request; keeping the request itself
    // costs about 4 kB per connection (socket.io's memory guide).
    (socket.conn as unknown as { request: unknown }).request = null;
    // Its handshake passed just before the drain began: it moves with the others.
    if (draining) socket.data.restarting = true;
    budgets(socket, userFrames.hold(socket.data.user.userId));
    const { userId, username, avatar } = socket.data.user;
    const me: OnlineUser = { userId, username, avatar };
    const { tab } = socket.handshake.query;
    const rooms = [userRoom(userId), slice(PRESENCE_ROOM, connections++ % PRESENCE_SLICES)];
    if (socket.data.sid) rooms.push(signInRoom(socket.data.sid));
    if (typeof tab === 'string') rooms.push(tabRoom(userId, tab));
    void socket.join(rooms);
    const open = (socketsPerUser.get(userId) ?? 0) + 1;
    socketsPerUser.set(userId, open);
    // Handshakes that arrived together all passed the check before any of them connected.
    if (open > MAX_SOCKETS_PER_USER) socket.conn.close();
    broadcaster.socketConnected(socket.id, userId);
    presence
      .join(socket.id, me)
      .then((first) => {
        if (!first) return;
        broadcaster.userOnline(me);
        tellCluster({ user: me, online: true });
        presenceChanged(userId, true);
      })
      .catch((err: unknown) => deps.log.error({ err }, 'presence join failed'));
  });
  events.on(presenceEvents.more, (socket, [payload]) => {
    const { userId } = socket.data.user;
    const answer = async () => {
      if (!pageLimit.take(userId)) throw new Refusal('Too many requests for the online list. Please wait a moment.', 'rate_limited');
      const { cursor } = parseEvent(onlineUsersMoreSchema, payload);
      socket.emit(presenceEvents.onlineUsersPage, await broadcaster.more(socket.id, cursor));
    };
    answer().catch((err: unknown) => refuse(socket, deps.log, presenceEvents.more, err));
  });
  events.onDisconnect((socket) => {
    const { userId } = socket.data.user;
    broadcaster.socketDisconnected(socket.id);
    userFrames.release(userId);
    const left = (socketsPerUser.get(userId) ?? 1) - 1;
    if (left > 0) socketsPerUser.set(userId, left);
    else socketsPerUser.delete(userId);
    presence
      .leave(socket.id, userId)
      .then((last) => {
        if (!last) return;
        broadcaster.userOffline(userId);
        tellCluster({ userId, online: false });
        presenceChanged(userId, false);
      })
      .catch((err: unknown) => deps.log.error({ err }, 'presence leave failed'));
  });

  const endedListeners = new Set<(ended: Ended) => void>();
  const notifyEnded = (ended: Ended) => {
    for (const l of endedListeners) l(ended);
  };
  if (deps.redis)
    io.on('parley:ended', (ended) => {
      // From another process of ours; still checked, as everything that crosses a wire.
      const e = ended as Partial<{ userId: unknown; sid: unknown }> | null;
      if (typeof e?.userId === 'string') notifyEnded({ userId: e.userId });
      else if (typeof e?.sid === 'string') notifyEnded({ sid: e.sid });
    });
  const endRoom = (room: string, reason: string, ended: Ended) => {
    const end: SessionEnd = { reason };
    io.to(room).emit(authEvents.sessionEnd, end);
    io.in(room).disconnectSockets(true);
    notifyEnded(ended);
    if (deps.redis) io.serverSideEmit('parley:ended', ended);
  };

  return {
    io,
    presence,
    async endSession(userId, reason) {
      endRoom(userRoom(userId), reason, { userId });
    },
    async endSignIn(sid, reason) {
      endRoom(signInRoom(sid), reason, { sid });
    },
    onEnded(listener) {
      endedListeners.add(listener);
    },
    toUser(userId, event, payload) {
      io.to(userRoom(userId)).emit(event, payload);
    },
    onPresence(listener) {
      presenceListeners.add(listener);
    },
    stopAccepting() {
      draining = true;
    },
    async moveAll() {
      draining = true;
      const notice: Restarting = { reconnectWithinMs: RESTART_RECONNECT_WITHIN_MS };
      for (const socket of io.sockets.sockets.values()) {
        socket.data.restarting = true;
        socket.emit(connectionEvents.restarting, notice);
      }
      const until = Date.now() + RESTART_RECONNECT_WITHIN_MS + MOVE_MARGIN_MS;
      while (io.sockets.sockets.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      for (const socket of io.sockets.sockets.values()) {
        socket.data.restarting = true;
        socket.conn.close();
      }
    },
    async close() {
      closed = true;
      clearInterval(reaper);
      broadcaster.close();
      pageLimit.close();
      userFrames.close();
      // Closing the transports (not disconnectSockets) makes clients see a lost connection and
      // reconnect to another process; a server-side disconnect would tell them to sign out.
      // io.close() would also close the HTTP server, which server.ts owns.
      io.engine.close();
      if (sub) await closeRedis(sub);
    },
  };
}
