import http from 'node:http';
import type { AddressInfo, Socket as NetSocket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Server, type Socket } from 'socket.io';
import { io as ioClient, type Socket as ClientSocket } from 'socket.io-client';
import { coalesceFlushes } from './coalesce.ts';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A socket.io server and one websocket client; counts the server socket's writes to the TCP socket. */
async function pair(coalesce: boolean) {
  const httpServer = http.createServer();
  const io = new Server(httpServer);
  if (coalesce) io.engine.on('connection', coalesceFlushes);
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => io.close(() => r())));
  const connected = new Promise<Socket>((r) => io.on('connection', r));
  const client: ClientSocket = ioClient(`http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`, { transports: ['websocket'] });
  closers.push(() => void client.disconnect());
  const socket = await connected;
  await new Promise<void>((r) => (client.connected ? r() : client.once('connect', () => r())));
  const raw = (socket.conn.transport as unknown as { socket: { _socket: NetSocket } }).socket._socket;
  const writes = { count: 0 };
  // Each call is one system call (writev for a frame's header and payload, or for corked frames).
  for (const m of ['_write', '_writev'] as const) {
    const original = raw[m] as (...args: unknown[]) => void;
    (raw as unknown as Record<string, unknown>)[m] = (...args: unknown[]) => {
      writes.count++;
      return original.apply(raw, args);
    };
  }
  return { io, socket, client, writes };
}

const receive = (client: ClientSocket, n: number) =>
  new Promise<unknown[]>((resolve) => {
    const got: unknown[] = [];
    client.on('n', (v: unknown) => {
      got.push(v);
      if (got.length === n) resolve(got);
    });
  });

describe('coalesced flushes', () => {
  // Without coalescing (the behaviour it replaces), one write per packet.
  it.each([
    { coalesce: true, expected: 1 },
    { coalesce: false, expected: 3 },
  ])('sends three packets of one event-loop turn in order, in $expected write(s) (coalesce: $coalesce)', async ({ coalesce, expected }) => {
    const { socket, client, writes } = await pair(coalesce);
    const got = receive(client, 3);
    for (const n of [1, 2, 3]) socket.emit('n', n);
    expect(await got).toEqual([1, 2, 3]);
    expect(writes.count).toBe(expected);
  });

  it('delivers acknowledgements and packets sent from the write callbacks of a previous turn', async () => {
    const { socket, client } = await pair(true);
    client.on('ask', (v: number, ack: (r: number) => void) => ack(v * 2));
    const answers = await Promise.all([1, 2, 3].map((v) => socket.timeout(2000).emitWithAck('ask', v)));
    expect(answers).toEqual([2, 4, 6]);
    const got = receive(client, 2);
    socket.emit('n', 'a');
    setImmediate(() => socket.emit('n', 'b'));
    expect(await got).toEqual(['a', 'b']);
  });

  it('still closes a socket with packets waiting: they leave first', async () => {
    const { socket, client } = await pair(true);
    const got = receive(client, 2);
    const gone = new Promise<string>((r) => client.once('disconnect', r));
    socket.emit('n', 1);
    socket.emit('n', 2);
    socket.disconnect(true);
    expect(await got).toEqual([1, 2]);
    expect(await gone).toBe('io server disconnect');
  });
});
