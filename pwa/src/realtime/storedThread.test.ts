import { describe, expect, it, vi } from 'vitest';
import type { Socket as ServerSocket } from 'socket.io';
import { roomEvents as wire, type JoinAnswer, type RoomMessage, type ThreadAnswer } from '@parley/contract/rooms';
import { setUpSocketServer, type SocketServerTest } from './testing/socketServer';
import { createStoredRoom } from './storedRoom';
import { storedMessage } from './testing/storedMessage';

const ROOM = '6f1c1b7e-1111-4a4a-8a8a-000000000002';
const msg = (id: number, over: Partial<RoomMessage> = {}) => storedMessage(id, over, ROOM);
const joined = (messages: RoomMessage[], over: Partial<Extract<JoinAnswer, { ok: true }>> = {}): JoinAnswer => ({
  ok: true,
  messages,
  hasOlder: false,
  hasNewer: false,
  lastReadId: 0,
  readBy: {},
  people: [],
  mutedUntil: null,
  ...over,
});
const opened = (root: RoomMessage, messages: RoomMessage[], over: Partial<Extract<ThreadAnswer, { ok: true }>> = {}): ThreadAnswer => ({
  ok: true,
  root,
  messages,
  hasOlder: false,
  hasNewer: false,
  following: true,
  lastReadId: 0,
  ...over,
});

const t = setUpSocketServer({} as SocketServerTest);
const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 3000 });

function answer<A>(server: ServerSocket, event: string, asked: unknown[], answers: A[], fallback: A) {
  server.on(event, (payload: unknown, ack: (a: A) => void) => {
    asked.push(payload);
    ack(answers.shift() ?? fallback);
  });
}

describe('a thread of a group room on a page', () => {
  it('takes its replies from the room’s live events (the room keeps only its own), posts and reads as the thread, and catches up after a drop', async () => {
    const roomJoins: unknown[] = [];
    const threadOpens: unknown[] = [];
    const root = msg(1, { thread: { replies: 1, lastReplyAt: 1 } });
    answer(t.server, wire.join, roomJoins, [joined([root, msg(3)], { threadUnread: { 1: 2 } })], joined([]));
    answer(t.server, wire.thread, threadOpens, [opened(root, [msg(2, { threadId: 1 })])], opened(root, []));
    const posts: Array<Record<string, unknown>> = [];
    t.server.on(wire.post, (p: Record<string, unknown>, ack: (a: unknown) => void) => {
      posts.push(p);
      ack({ ok: true, message: msg(5, { threadId: 1, clientId: p.clientId as string, text: p.text as string }) });
    });
    const reads: unknown[] = [];
    t.server.on(wire.threadRead, (p: unknown) => reads.push(p));

    const room = createStoredRoom({ roomId: ROOM, fetchPage: vi.fn(), notify: vi.fn() });
    room.start();
    await until(() => room.getState().phase === 'open');
    expect(room.getState().threadUnread).toEqual({ 1: 2 });
    const thread = createStoredRoom({ roomId: ROOM, fetchPage: vi.fn(), notify: vi.fn(), thread: { rootId: 1, room } });
    thread.start();
    await until(() => thread.getState().phase === 'open');
    expect(threadOpens).toEqual([{ roomId: ROOM, rootId: 1 }]);
    expect(thread.getState()).toMatchObject({ root: { id: 1 }, following: true });

    // A reply arrives live: the thread shows it, the room does not; the root's new count reaches both.
    t.server.emit(wire.message, msg(4, { threadId: 1 }));
    t.server.emit(wire.changed, { ...root, thread: { replies: 2, lastReplyAt: 4 } });
    await until(() => thread.getState().messages.length === 2 && thread.getState().root?.thread?.replies === 2);
    expect(room.getState().messages.map((m) => m.id)).toEqual([1, 3]);
    expect(room.getState().messages[0]!.thread?.replies).toBe(2);

    // Sending goes to the thread; reading it clears its unread count in the room.
    thread.send('in the thread');
    await until(() => thread.getState().messages.some((m) => m.id === 5));
    expect(posts[0]).toMatchObject({ roomId: ROOM, threadId: 1, text: 'in the thread' });
    thread.markRead(5);
    await until(() => reads.length === 1);
    expect(reads[0]).toEqual({ roomId: ROOM, rootId: 1, lastReadId: 5 });
    expect(room.getState().threadUnread).toEqual({});

    // A reply in a thread that is not open counts as unread there.
    t.server.emit(wire.threadActivity, { roomId: ROOM, rootId: 3, messageId: 6, senderId: 'someone' });
    await until(() => room.getState().threadUnread[3] === 1);

    // The line drops: the thread opens again from the last reply its answers brought (a thread's ids
    // have gaps, the room's other messages: what came live since is asked for again, and shown once).
    const next = new Promise<ServerSocket>((resolve) => t.io.once('connection', resolve));
    t.server.conn.close();
    const again = await next;
    answer(again, wire.join, roomJoins, [], joined([]));
    answer(again, wire.thread, threadOpens, [opened(root, [msg(7, { threadId: 1 })])], opened(root, []));
    await until(() => thread.getState().messages.some((m) => m.id === 7));
    expect(threadOpens[1]).toEqual({ roomId: ROOM, rootId: 1, after: 2 });
    expect(thread.getState().messages.map((m) => m.id)).toEqual([2, 4, 5, 7]);
    thread.stop();
    room.stop();
  });
});
