import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import { io as ioClient, type Socket as ClientSocket } from 'socket.io-client';
import { socketEvents } from './dispatch.ts';
import { MAX_INVALID_EVENTS } from './refusals.ts';
import type { AppIo, AppSocket } from './server.ts';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function server() {
  const httpServer = http.createServer();
  const io = new Server(httpServer) as unknown as AppIo;
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => io.close(() => r())));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  const connect = async () => {
    const connected = new Promise<AppSocket>((r) => io.once('connection', r));
    const client: ClientSocket = ioClient(url, { transports: ['websocket'], forceNew: true, reconnection: false });
    closers.push(() => void client.disconnect());
    const socket = await connected;
    await new Promise<void>((r) => (client.connected ? r() : client.once('connect', () => r())));
    return { socket, client };
  };
  return { io, connect };
}

describe('socket events through one table', () => {
  it('runs the one handler of an event for every socket, with its socket and arguments, the acknowledgement last', async () => {
    const { io, connect } = await server();
    const events = socketEvents(io);
    const seen: Array<{ id: string; args: unknown[] }> = [];
    events.on('echo', (socket, args) => {
      seen.push({ id: socket.id, args: args.slice(0, -1) });
      (args.at(-1) as (a: unknown) => void)({ from: socket.id, got: args[0] });
    });
    const a = await connect();
    const b = await connect();
    expect(await a.client.emitWithAck('echo', { n: 1 })).toEqual({ from: a.socket.id, got: { n: 1 } });
    expect(await b.client.emitWithAck('echo', 'two', 3)).toEqual({ from: b.socket.id, got: 'two' });
    expect(seen).toEqual([
      { id: a.socket.id, args: [{ n: 1 }] },
      { id: b.socket.id, args: ['two', 3] },
    ]);
  });

  it('costs a socket two listeners whatever the number of events', async () => {
    const { io, connect } = await server();
    const events = socketEvents(io);
    for (let i = 0; i < 50; i++) events.on(`e${i}`, () => undefined);
    events.onDisconnect(() => undefined);
    const { socket } = await connect();
    // socket.io's own 'error' listener aside, none per event.
    expect(socket.eventNames().filter((e) => e !== 'error')).toEqual(['disconnect']);
    expect(socket.listenerCount('disconnect')).toBe(1);
    expect(socket.listenersAny()).toHaveLength(1);
    const other = await connect();
    // The same two functions on every socket: no closure per connection.
    expect(other.socket.listenersAny()[0]).toBe(socket.listenersAny()[0]);
    expect(other.socket.listeners('disconnect')[0]).toBe(socket.listeners('disconnect')[0]);
  });

  it('counts an event nobody handles as invalid, and cuts a socket that keeps sending them', async () => {
    const { io, connect } = await server();
    socketEvents(io).on('known', () => undefined);
    const { socket, client } = await connect();
    client.emit('nobody:handles');
    await new Promise<void>((r) => setTimeout(r, 50));
    expect(socket.data.invalid?.count).toBe(1);
    const cut = new Promise<string>((r) => client.once('disconnect', r));
    for (let i = 0; i < MAX_INVALID_EVENTS; i++) client.emit('nobody:handles');
    expect(await cut).toBe('io server disconnect');
  });

  it('runs every disconnect hook in the order added, once, with the reason', async () => {
    const { io, connect } = await server();
    const events = socketEvents(io);
    const order: string[] = [];
    events.onDisconnect((s, reason) => order.push(`first ${s.id} ${reason}`));
    events.onDisconnect((s) => order.push(`second ${s.id}`));
    const { socket, client } = await connect();
    const gone = new Promise<void>((r) => socket.once('disconnect', () => setImmediate(r)));
    client.disconnect();
    await gone;
    expect(order).toEqual([`first ${socket.id} client namespace disconnect`, `second ${socket.id}`]);
  });

  it('refuses a second handler for the same event', async () => {
    const { io } = await server();
    const events = socketEvents(io);
    events.on('twice', () => undefined);
    expect(() => events.on('twice', () => undefined)).toThrow(/handled twice/);
    // One table per server, whoever asks for it.
    expect(socketEvents(io)).toBe(events);
  });
});
