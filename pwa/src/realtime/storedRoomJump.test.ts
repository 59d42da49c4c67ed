import { describe, expect, it, vi } from 'vitest';
import { roomEvents as wire, type JoinAnswer, type MessagePage, type RoomMessage } from '@parley/contract/rooms';
import type { Socket as ServerSocket } from 'socket.io';
import { setUpSocketServer, type SocketServerTest } from './testing/socketServer';
import { createStoredRoom } from './storedRoom';
import { storedMessage } from './testing/storedMessage';
import { i18n } from '@lingui/core';

// What the room tells the person goes through the app's i18n, in English here.
i18n.loadAndActivate({ locale: 'en', messages: {} });

const ROOM = '6f1c1b7e-1111-4a4a-8a8a-000000000002';
const msg = (id: number) => storedMessage(id, {}, ROOM);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));
const t = setUpSocketServer({} as SocketServerTest);
const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 3000 });

function joinWith(server: ServerSocket, messages: RoomMessage[]) {
  server.on(wire.join, (_p: unknown, ack: (a: JoinAnswer) => void) =>
    ack({ ok: true, messages, hasOlder: true, hasNewer: false, lastReadId: 1000, readBy: {}, people: [], mutedUntil: null }),
  );
}

describe('jumping to an old message (a search hit)', () => {
  it('brings the page around it, then fills the gap up to the latest messages', async () => {
    joinWith(t.server, range(951, 1000));
    const pages: Record<string, MessagePage> = {
      around: { messages: range(100, 149), hasMore: true, hasNewer: true },
      gap: { messages: range(150, 249), hasMore: true },
    };
    const fetchPage = vi.fn(async (q: { around?: number; after?: number }) => (q.around !== undefined ? pages.around! : pages.gap!));
    const r = createStoredRoom({ roomId: ROOM, fetchPage, notify: vi.fn() });
    r.start();
    await until(() => r.getState().messages.length === 50);
    expect(r.getState().gapAfter).toBeNull();

    expect(await r.jumpTo(125)).toBe(true);
    expect(fetchPage).toHaveBeenCalledWith({ around: 125, limit: 50 });
    const s = r.getState();
    expect(s.messages[0]!.id).toBe(100);
    expect(s.hasOlder).toBe(true);
    expect(s.gapAfter).toBe(149);

    await r.loadGap();
    expect(fetchPage).toHaveBeenLastCalledWith({ after: 149, limit: 100 });
    expect(r.getState().gapAfter).toBe(249);

    // A message already held is not fetched again.
    fetchPage.mockClear();
    expect(await r.jumpTo(975)).toBe(true);
    expect(fetchPage).not.toHaveBeenCalled();
    r.stop();
  });

  it('says so when the page cannot be had', async () => {
    joinWith(t.server, range(1, 3));
    const notify = vi.fn();
    const r = createStoredRoom({ roomId: ROOM, fetchPage: () => Promise.reject(new Error('offline')), notify });
    r.start();
    await until(() => r.getState().messages.length === 3);
    expect(await r.jumpTo(99)).toBe(false);
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Could not open that message' }));
    r.stop();
  });
});
