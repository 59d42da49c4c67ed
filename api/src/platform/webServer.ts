import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mountPeerServer, type PeerMount } from '@parley/peer-server';
import { publicUrl, type Config } from './config.ts';
import type { Logger } from './logger.ts';
import type { Redis } from './redis.ts';
import { securityHeaders } from './httpApp.ts';

/**
 * The API's HTTP server, made before anything attaches to it (socket.io, PeerJS). /peerjs goes to
 * the PeerJS signalling server (express) when PEERJS_MOUNT is on, everything else to the request
 * handler bound with `serve` once the routes exist; it must be bound before `listen`.
 */
export function webServer(cfg: Config, opts: { log: Logger; secret: Uint8Array; redis: Redis | undefined }) {
  let handler: http.RequestListener | undefined;
  let peer: PeerMount | undefined;
  const server = http.createServer((req, res) => (peer?.owns(req) ? peer.handle(req, res) : void handler!(req, res)));
  // An idle keep-alive connection is closed after 65 s, not Node's 5: a proxy (nginx keeps 60 s by
  // default) or client reusing it just as the server closed it would get a reset instead of an answer.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  if (cfg.PEERJS_MOUNT) {
    // With Redis, every process serving peers shares which tickets have registered.
    peer = mountPeerServer(server, {
      secret: opts.secret,
      log: opts.log,
      redis: opts.redis,
      redisKeyPrefix: cfg.REDIS_KEY_PREFIX,
      allowedOrigin: new URL(publicUrl(cfg)).origin,
      securityHeaders: securityHeaders(cfg),
    });
  }
  return {
    server,
    serve(requests: http.RequestListener) {
      handler = requests;
    },
    /** Listens on PORT and HOST; the port it got. */
    async listen(): Promise<number> {
      if (!handler) throw new Error('the HTTP server listens only once its request handler is bound');
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(cfg.PORT, cfg.HOST, () => resolve());
      });
      return (server.address() as AddressInfo).port;
    },
    /** Stops the PeerJS signalling server, when mounted. */
    closePeer: async () => peer?.close(),
    /** Stops listening and ends every connection still open. */
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
