import type http from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { TokenUser } from '@parley/contract/auth';
import { publicUrl } from '../platform/config.ts';
import type { AppDeps } from '../deps.ts';

export type SocketData = { user: TokenUser };
export type AppSocket = Socket<
  Record<string, (...args: never[]) => void>,
  Record<string, (...args: never[]) => void>,
  Record<string, never>,
  SocketData
>;
export type AppIo = Server<
  Record<string, (...args: never[]) => void>,
  Record<string, (...args: never[]) => void>,
  Record<string, never>,
  SocketData
>;

/**
 * socket.io on the API's HTTP server. The handshake must carry a valid access token
 * (`auth.token`) whose user is the `userId` of the query; every later event is authorised
 * against `socket.data.user`, never against what a payload claims.
 */
export function createRealtime(httpServer: http.Server, deps: AppDeps): { io: AppIo; close(): Promise<void> } {
  const origin = new URL(publicUrl(deps.cfg)).origin;
  const io: AppIo = new Server(httpServer, {
    path: '/socket.io',
    cors: { origin, credentials: true },
    // The largest chat message is 64 KiB of UTF-8; leave room for the envelope.
    maxHttpBufferSize: 128 * 1024,
    pingInterval: 10_000,
    pingTimeout: 8_000,
    serveClient: false,
  });

  let sub: AppDeps['redis'];
  if (deps.redis) {
    sub = deps.redis.duplicate();
    io.adapter(createAdapter(deps.redis, sub));
  }

  io.use((socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown };
    const token = typeof auth.token === 'string' ? auth.token : undefined;
    const claimed = socket.handshake.query.userId;
    deps.tokens
      .verify(token)
      .then((user) => {
        if (!user) return next(new Error('Unauthorized'));
        if (typeof claimed === 'string' && claimed !== user.userId) return next(new Error('Unauthorized'));
        socket.data.user = user;
        next();
      })
      .catch(next);
  });

  return {
    io,
    async close() {
      io.disconnectSockets(true);
      // io.close() would also close the HTTP server, which server.ts owns.
      io.engine.close();
      sub?.disconnect();
    },
  };
}
