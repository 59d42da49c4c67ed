import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { createRequire } from 'node:module';
import type Express from 'express';
import type * as Peer from 'peer';
import { WebSocket, WebSocketServer } from 'ws';
import { PEER_MAX_MESSAGE_BYTES, PEER_MAX_SOCKETS_PER_USER, peerServerOptions, type PeerServerOptions } from './options.ts';
import { peerAuthority, type PeerAuthority } from './peerIds.ts';
import { mayRelay } from './relayPolicy.ts';
import { memoryUsedTickets, redisUsedTickets, type TicketRedis, type UsedTickets } from './usedTickets.ts';

/** The few logger calls the signalling server makes (pino fits). */
export type PeerLog = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export type PeerMount = {
  /** Whether an HTTP request belongs to the signalling server (its path is under `path`). */
  owns(req: http.IncomingMessage): boolean;
  handle(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** Registered peers right now. */
  peerCount(): number;
  close(): Promise<void>;
};

export type MountOptions = {
  /** The server secret: verifies peer tickets (the API signs them with the same secret). */
  secret: Uint8Array;
  options?: PeerServerOptions;
  log?: PeerLog;
  /** Standalone: refuse WebSocket upgrades to any other path (nobody else is listening). */
  exclusive?: boolean;
  /** Shared by every process serving peers: used tickets are remembered there, not in this process. */
  redis?: TicketRedis | undefined;
  /** Prefix of the Redis keys (the API's REDIS_KEY_PREFIX). */
  redisKeyPrefix?: string;
  /** Open peer sockets per user in this process (default PEER_MAX_SOCKETS_PER_USER). */
  maxSocketsPerUser?: number;
  /** The app's origin: the only one the HTTP routes answer cross-origin (none when unset). */
  allowedOrigin?: string | undefined;
  /**
   * Sets the security headers of every HTTP answer, then calls `next` (connect-style: helmet fits).
   * Mounted in the API, the API's own; standalone, strictHeaders.
   */
  securityHeaders?: SecurityHeaders;
};

type SecurityHeaders = (req: http.IncomingMessage, res: http.ServerResponse, next: (err?: unknown) => void) => void;

/** Headers for answers that are JSON and never a page: nothing may load, frame or sniff them. */
export const strictHeaders: SecurityHeaders = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  next();
};

/** A WebSocket that drops signalling its peer may not send (see relayPolicy.ts) before `peer` reads it. */
class PeerSocket extends WebSocket {
  peerId = '';
  onRefused: ((raw: string) => void) | undefined;
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'message' && this.peerId) {
      const raw = messageText(args[0]);
      if (!mayRelay(this.peerId, raw)) {
        this.onRefused?.(raw);
        return false;
      }
    }
    return super.emit(event, ...args);
  }
}

function messageText(data: unknown): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return String(data);
}

const CODES = { 400: 'bad_request', 401: 'unauthorized', 404: 'not_found', 429: 'rate_limited', 500: 'error', 503: 'unavailable' };

function refuse(socket: Duplex, status: keyof typeof CODES, reason: string, message = reason) {
  if (socket.writable) {
    const body = JSON.stringify({ message, code: CODES[status] });
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

// `peer` and its express are loaded when the first peer asks (about 4 MB of heap and 13 MB of a
// process's memory otherwise held by every API process from its start, video chat or not).
const lazyRequire = createRequire(import.meta.url);

/**
 * Serves the PeerJS signalling server on an existing HTTP server: HTTP under `options.path`
 * through an express app, the WebSocket at `${path}/peerjs` through our own upgrade listener,
 * which checks the peer ticket before `peer` ever sees the socket and leaves every other upgrade
 * (socket.io's) alone.
 */
export function mountPeerServer(server: http.Server, opts: MountOptions): PeerMount {
  const options = opts.options ?? peerServerOptions();
  const authority: PeerAuthority = peerAuthority(opts.secret);
  const usedTickets: UsedTickets = opts.redis ? redisUsedTickets(opts.redis, opts.redisKeyPrefix) : memoryUsedTickets();
  const maxPerUser = opts.maxSocketsPerUser ?? PEER_MAX_SOCKETS_PER_USER;
  const socketsOf = new Map<string, number>();
  const wsPath = `${options.path}/peerjs`;
  const securityHeaders = opts.securityHeaders ?? strictHeaders;

  const wss = new WebSocketServer({ noServer: true, WebSocket: PeerSocket, maxPayload: PEER_MAX_MESSAGE_BYTES });
  let peers = 0;
  let app: ReturnType<typeof Express> | undefined;
  /** The signalling server's express app, made on first use (`peer` initialises on mount). */
  const started = () => {
    if (app) return app;
    const express = lazyRequire('express') as typeof Express;
    const { ExpressPeerServer } = lazyRequire('peer') as typeof Peer;
    const peer = ExpressPeerServer(server, {
      ...options,
      path: '/',
      createWebSocketServer: () => wss,
      // `peer` reflects any Origin by default.
      corsOptions: { origin: opts.allowedOrigin ? [opts.allowedOrigin] : false },
    });
    // `peer`'s own express app announces itself unless told not to.
    peer.disable('x-powered-by');
    peer.on('connection', () => peers++);
    peer.on('disconnect', () => (peers = Math.max(0, peers - 1)));
    peer.on('error', (err) => opts.log?.warn({ err }, 'peer server error'));
    app = express();
    app.disable('x-powered-by');
    // Ids are handed out by the API, never generated here, and discovery is off: only the info route stays.
    app.use(options.path, (req, res, next) => {
      if (req.method === 'GET' && req.path === '/') return next();
      res.status(404).json({ message: 'Not found', code: 'not_found' });
    });
    app.use(options.path, peer);
    return app;
  };

  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://peer.invalid');
    if (url.pathname !== wsPath && url.pathname !== `${wsPath}/`) {
      if (opts.exclusive) refuse(socket, 404, 'Not Found');
      return;
    }
    socket.on('error', () => socket.destroy());
    // `peer` registers the last of a repeated parameter; refuse any repeat so what is checked is what registers.
    if (['id', 'token', 'key'].some((name) => url.searchParams.getAll(name).length > 1)) return refuse(socket, 400, 'Bad Request');
    const id = url.searchParams.get('id');
    const key = url.searchParams.get('key');
    const token = url.searchParams.get('token');
    if (key !== options.key) return refuse(socket, 400, 'Bad Request');
    const register = async () => {
      const claims = await authority.verifyTicket(token, id);
      if (!claims || !token) {
        opts.log?.info({ peerId: id }, 'peer registration refused');
        return refuse(socket, 401, 'Unauthorized');
      }
      // Per process, like the `concurrent_limit` it protects: one user cannot fill it for everyone.
      if (socket.destroyed) return;
      const open = socketsOf.get(claims.userId) ?? 0;
      if (open >= maxPerUser) {
        opts.log?.info({ userId: claims.userId, open }, 'peer registration over the per-user limit');
        return refuse(socket, 429, 'Too Many Requests', 'Too many video connections are open for this account.');
      }
      // Held from here until the socket closes, however it ends (refused below, upgraded, or dropped).
      socketsOf.set(claims.userId, open + 1);
      socket.once('close', () => {
        const n = (socketsOf.get(claims.userId) ?? 1) - 1;
        if (n > 0) socketsOf.set(claims.userId, n);
        else socketsOf.delete(claims.userId);
      });
      let firstUse: boolean;
      try {
        firstUse = await usedTickets.claim(claims.ticketId, claims.expiresAtMs);
      } catch (err) {
        // Without the store a ticket could be replayed: refuse rather than guess.
        opts.log?.warn({ err }, 'used peer tickets unavailable');
        return refuse(socket, 503, 'Service Unavailable');
      }
      if (!firstUse) {
        // Whoever holds a used ticket could take over (or squat) the id it names.
        opts.log?.info({ peerId: claims.peerId, userId: claims.userId }, 'peer ticket used again');
        return refuse(socket, 401, 'Unauthorized');
      }
      // `peer` reads its parameters from this URL: hand it the verified values and nothing else.
      req.url = `${wsPath}?${new URLSearchParams({ key: options.key, id: claims.peerId, token })}`;
      started();
      wss.handleUpgrade(req, socket, head, (ws) => {
        const peerSocket = ws as PeerSocket;
        peerSocket.peerId = claims.peerId;
        peerSocket.onRefused = () =>
          opts.log?.info({ peerId: claims.peerId, userId: claims.userId }, 'signalling outside the room dropped');
        wss.emit('connection', ws, req);
      });
    };
    register().catch(() => refuse(socket, 500, 'Internal Server Error'));
  };
  server.on('upgrade', onUpgrade);

  return {
    owns(req) {
      const p = (req.url ?? '/').split('?')[0] ?? '/';
      return p === options.path || p.startsWith(`${options.path}/`);
    },
    handle(req, res) {
      securityHeaders(req, res, (err?: unknown) => {
        if (!err) return void started()(req, res);
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Something went wrong.', code: 'error' }));
      });
    },
    peerCount: () => peers,
    async close() {
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
