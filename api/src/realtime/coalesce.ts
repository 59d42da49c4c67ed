import type { Socket as NetSocket } from 'node:net';

/** The parts of an engine.io socket (socket.conn) that coalescing touches. */
type EngineSocket = {
  flush(): void;
  transport?: { name: string; socket?: { _socket?: NetSocket } };
};

const queued = new Set<EngineSocket>();
const flushNow = new WeakMap<EngineSocket, () => void>();
let scheduled = false;

const flushAll = () => {
  scheduled = false;
  const conns = [...queued];
  queued.clear();
  for (const conn of conns) {
    // ws writes each frame at once: corked, the turn's frames leave in one system call.
    const raw = conn.transport?.name === 'websocket' ? conn.transport.socket?._socket : undefined;
    raw?.cork();
    flushNow.get(conn)?.();
    raw?.uncork();
  }
};

/**
 * Sends what an engine.io socket is given during one event-loop turn together, once the turn's
 * I/O callbacks have run (setImmediate), instead of a write per packet.
 *
 * A chat message costs four packets: the message in, its delivery to the partner, the partner's
 * acknowledgement in, the acknowledgement to the sender. When the partner answers at once, the
 * acknowledgement and the answer reach the sender in the same turn, and engine.io would write
 * them apart (one system call and one wake-up of the receiving process each; the second waits
 * for the first's write callback). Here they leave as one write.
 *
 * engine.io flushes through `this.flush()` everywhere (a new packet, the transport ready again,
 * an upgrade), so replacing it on the instance defers every path; the deferred flush is
 * engine.io's own.
 */
export function coalesceFlushes(conn: EngineSocket) {
  flushNow.set(conn, conn.flush.bind(conn));
  conn.flush = () => {
    queued.add(conn);
    if (scheduled) return;
    scheduled = true;
    setImmediate(flushAll);
  };
}
