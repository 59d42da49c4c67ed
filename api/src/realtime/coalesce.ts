import type { Socket as NetSocket } from 'node:net';

/** The parts of an engine.io socket (socket.conn) that coalescing touches. */
type EngineSocket = {
  flush(): void;
  transport?: { name: string; socket?: { _socket?: NetSocket } };
};

const QUEUED = Symbol("queued for the turn's flush");
type Queued = EngineSocket & { [QUEUED]?: boolean };

/** The sockets given packets this turn: a flag on each instead of a set, so a turn allocates one array. */
let queue: Queued[] = [];
let scheduled = false;

const flushAll = () => {
  scheduled = false;
  const conns = queue;
  queue = [];
  for (const conn of conns) {
    conn[QUEUED] = false;
    // ws writes each frame at once: corked, the turn's frames leave in one system call.
    const raw = conn.transport?.name === 'websocket' ? conn.transport.socket?._socket : undefined;
    raw?.cork();
    // engine.io's own flush, which the instance's deferredFlush hides.
    (Object.getPrototypeOf(conn) as EngineSocket).flush.call(conn);
    raw?.uncork();
  }
};

/** Every socket's flush: the same function for all (engine.io calls it with the socket as `this`). */
function deferredFlush(this: Queued) {
  if (this[QUEUED]) return;
  this[QUEUED] = true;
  queue.push(this);
  if (scheduled) return;
  scheduled = true;
  setImmediate(flushAll);
}

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
  conn.flush = deferredFlush;
}
