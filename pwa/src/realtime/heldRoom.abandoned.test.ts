import { describe, expect, it, vi } from 'vitest';
import type { Socket as ServerSocket } from 'socket.io';
import { chatEvents } from '@parley/contract/matchmaking';
import { createAbandonedRooms } from './heldRoom';
import { setUpSocketServer, whenSocketStatus, type SocketServerTest } from './testing/socketServer';

const t = setUpSocketServer({} as SocketServerTest);

/** What the next connection's server side receives. */
function nextConnection(received: unknown[]) {
  return new Promise<ServerSocket>((resolve) =>
    t.io.once('connection', (sock: ServerSocket) => {
      sock.onAny((name: string, payload: unknown) => received.push([name, payload]));
      sock.on(chatEvents.resume, (_p: unknown, ack: (a: unknown) => void) => ack({ ok: true, partnerAway: false }));
      resolve(sock);
    }),
  );
}

describe('abandoned rooms', () => {
  it('a room left while the connection is down is taken back and stopped once it is up again', async () => {
    const abandoned = createAbandonedRooms();
    const received: unknown[] = [];
    const again = nextConnection(received);
    // Left the moment the connection is seen gone (the reconnection here takes 20 ms).
    const left = whenSocketStatus('reconnecting', () => abandoned.stopOnServer({ roomId: 'room-1', reconnecting: true }));
    t.server.conn.close();
    await left;
    t.server = await again;
    await vi.waitFor(() =>
      expect(received).toEqual([
        [chatEvents.resume, { roomId: 'room-1' }],
        [chatEvents.stop, undefined],
      ]),
    );
    abandoned.dispose();
  });

  it('disposed, it no longer waits for the connection', async () => {
    const abandoned = createAbandonedRooms();
    const received: unknown[] = [];
    const again = nextConnection(received);
    const left = whenSocketStatus('reconnecting', () => {
      abandoned.endWhenBack('room-1');
      abandoned.dispose();
    });
    t.server.conn.close();
    await left;
    t.server = await again;
    await new Promise((r) => setTimeout(r, 100));
    expect(received).toEqual([]);
  });
});
