import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Namespace } from 'socket.io';
import { io as ioClient, type Socket } from 'socket.io-client';
import { localeFromHeader } from '../platform/i18n/i18n.ts';
import { relayRefusals } from '../realtime/emit.ts';
import type { AppIo } from '../realtime/server.ts';
import { ClusterAdapter, type ClusterMessage, type ClusterResponse } from 'socket.io-adapter';

/**
 * socket.io servers of one process that act as the API processes of one deployment: what one of
 * them broadcasts or emits server-side reaches the others, as through the Redis adapter, without
 * Redis. Messages are delivered on a later turn, as a network would.
 */
export function sharedAdapter() {
  const peers = new Set<Shared>();
  class Shared extends ClusterAdapter {
    // socket.io constructs its adapter with the namespace.
    constructor(nsp: Namespace) {
      super(nsp);
      peers.add(this);
    }
    protected doPublish(message: ClusterMessage): Promise<string> {
      for (const p of peers) if (p !== this) setImmediate(() => p.onMessage(message));
      return Promise.resolve('');
    }
    protected doPublishResponse(requesterUid: string, response: ClusterResponse): Promise<void> {
      for (const p of peers) if (p.uid === requesterUid) setImmediate(() => p.onResponse(response));
      return Promise.resolve();
    }
    override close() {
      peers.delete(this);
    }
  }
  return Shared;
}

/**
 * Bare socket.io servers standing for API processes (sharing `sharedAdapter()`, or alone): each
 * socket keeps its page's language (handshake `auth.locale`) as realtime/server.ts does.
 */
export function socketProcesses() {
  const closers: Array<() => Promise<void> | void> = [];
  /** One "API process": a socket.io server whose sockets keep their page's language, as realtime/server.ts does. */
  async function process(adapter?: ReturnType<typeof sharedAdapter>, relay = true) {
    const httpServer = http.createServer();
    const io = new Server(httpServer, adapter ? { adapter } : {}) as unknown as AppIo;
    io.use((socket, go) => {
      const locale = (socket.handshake.auth as { locale?: unknown }).locale;
      socket.data.locale = typeof locale === 'string' ? localeFromHeader(locale) : null;
      go();
    });
    if (relay) relayRefusals(io);
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
    closers.push(() => new Promise<void>((resolve) => io.close(() => resolve())));
    const open = async (locale?: string): Promise<Socket> => {
      const s = ioClient(url, { transports: ['websocket'], forceNew: true, reconnection: false, auth: locale ? { locale } : {} });
      closers.push(() => void s.close());
      await new Promise<void>((resolve, reject) => {
        s.once('connect', resolve);
        s.once('connect_error', reject);
      });
      return s;
    };
    return { io, open };
  }
  return {
    process,
    async close() {
      for (const c of closers.splice(0).reverse()) await c();
    },
  };
}
