import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { chatEvents } from '@parley/contract/matchmaking';
import { closeSocket, connectSocket, getSocketStatus } from './socket';
import { askToResume } from './heldRoom';

// Against a real socket.io server that plays the API's part of `chat:resume`.
let httpServer: http.Server;
let io: Server;
let server: ServerSocket;
let received: string[];

beforeEach(async () => {
  received = [];
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  httpServer = http.createServer();
  io = new Server(httpServer, { path: '/socket.io' });
  const connected = new Promise<ServerSocket>((resolve) => io.on('connection', resolve));
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  connectSocket({ token: 't', userId: 'u1', username: 'ada' }, { url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}` });
  server = await connected;
  server.onAny((name: string) => received.push(name));
  await vi.waitFor(() => expect(getSocketStatus()).toBe('connected'));
});

afterEach(() => {
  closeSocket();
  io.close();
  vi.restoreAllMocks();
});

describe('asking for a held chat back', () => {
  it('reads the answers: resumed, the stranger left, or ended', async () => {
    const answers: unknown[] = [{ ok: true, partnerAway: true }, { ok: false, partnerLeft: true }, { ok: false }, { nonsense: 1 }];
    server.on(chatEvents.resume, (_p: unknown, ack: (a: unknown) => void) => ack(answers.shift()));
    expect(await askToResume('r', () => true)).toEqual({ kind: 'resumed', partnerAway: true });
    expect(await askToResume('r', () => true)).toEqual({ kind: 'partnerLeft' });
    expect(await askToResume('r', () => true)).toEqual({ kind: 'ended' });
    expect(await askToResume('r', () => true)).toEqual({ kind: 'ended' });
  });

  it('with no answer in time the chat is given up on the server too, unless the page has moved on', async () => {
    expect(await askToResume('r', () => true, 100)).toEqual({ kind: 'ended' });
    await vi.waitFor(() => expect(received).toContain(chatEvents.stop));
    received = [];
    expect(await askToResume('r', () => false, 100)).toEqual({ kind: 'ended' });
    await new Promise((r) => setTimeout(r, 100));
    expect(received).toEqual([chatEvents.resume]);
  });
});
