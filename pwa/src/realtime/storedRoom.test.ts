import { describe, expect, it, vi } from 'vitest';
import type { Socket as ServerSocket } from 'socket.io';
import { roomEvents as wire, type JoinAnswer, type RoomMessage } from '@parley/contract/rooms';
import { setUpSocketServer, type SocketServerTest } from './testing/socketServer';
import { createStoredRoom } from './storedRoom';
import { storedMessage } from './testing/storedMessage';
import { i18n } from '@lingui/core';

// The messages in English: the interface language the tests read.
i18n.loadAndActivate({ locale: 'en', messages: {} });

const ROOM = '6f1c1b7e-1111-4a4a-8a8a-000000000001';
const msg = (id: number, over: Partial<RoomMessage> = {}) => storedMessage(id, over, ROOM);
const answer = (messages: RoomMessage[], over: Partial<Extract<JoinAnswer, { ok: true }>> = {}): JoinAnswer => ({
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

const t = setUpSocketServer({} as SocketServerTest);
const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 3000 });

function room(fetchPage = vi.fn()) {
  const notify = vi.fn();
  const r = createStoredRoom({ roomId: ROOM, fetchPage, notify });
  return { r, notify, fetchPage };
}

/** Answers each `room:join` of a connection with the next of `answers`, recording what it asked. */
function answerJoins(server: ServerSocket, joins: unknown[], answers: JoinAnswer[]) {
  server.on(wire.join, (payload: unknown, ack: (a: JoinAnswer) => void) => {
    joins.push(payload);
    ack(answers.shift() ?? answer([]));
  });
}

describe('a stored room on a page', () => {
  it('catches up from the last id after a drop: what crossed the catch-up is shown once, in id order', async () => {
    const joins: unknown[] = [];
    answerJoins(t.server, joins, [answer([msg(1), msg(2)], { lastReadId: 1 })]);
    const { r } = room();
    r.start();
    await until(() => r.getState().messages.length === 2);
    expect(r.getState()).toMatchObject({ phase: 'open', readAtOpen: 1 });
    expect(joins).toEqual([{ roomId: ROOM }]);

    // The connection drops; the next one is answered with 3 and 4, while 4 also arrives live.
    const next = new Promise<ServerSocket>((resolve) => t.io.once('connection', resolve));
    t.server.conn.close();
    const again = await next;
    answerJoins(again, joins, [answer([msg(3), msg(4)])]);
    again.emit(wire.message, msg(4));
    await until(() => r.getState().messages.length === 4);
    expect(joins[1]).toEqual({ roomId: ROOM, after: 2 });
    expect(r.getState().messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    // The read position of the first visit stays: the first unread marker does not move.
    expect(r.getState().readAtOpen).toBe(1);
    r.stop();
  });

  it('catches up from before a message lost on its way, even when our own later one was acknowledged', async () => {
    const joins: unknown[] = [];
    answerJoins(t.server, joins, [answer([msg(1)])]);
    // Someone's message 2 is on its way when our post is stored as 3 and acknowledged; then the line drops.
    t.server.on(wire.post, (p: { clientId: string; text: string }, ack: (a: unknown) => void) =>
      ack({ ok: true, message: msg(3, { clientId: p.clientId, text: p.text }) }),
    );
    const { r } = room();
    r.start();
    await until(() => r.getState().messages.length === 1);
    r.send('mine');
    await until(() => r.getState().messages.length === 2);
    const next = new Promise<ServerSocket>((resolve) => t.io.once('connection', resolve));
    t.server.conn.close();
    answerJoins(await next, joins, [answer([msg(2), msg(3)])]);
    await until(() => r.getState().messages.length === 3);
    expect(joins[1]).toEqual({ roomId: ROOM, after: 1 });
    expect(r.getState().messages.map((m) => m.id)).toEqual([1, 2, 3]);
    r.stop();
  });

  it('counts the changes to its mutes, bans and slow mode it is told of, and a join after a drop as one it may have missed', async () => {
    answerJoins(t.server, [], [answer([msg(1)])]);
    const { r } = room();
    r.start();
    await until(() => r.getState().phase === 'open');
    expect(r.getState().restrictionsChanged).toBe(0);
    t.server.emit(wire.restrictions, { roomId: 'another' });
    t.server.emit(wire.restrictions, { roomId: ROOM });
    await until(() => r.getState().restrictionsChanged === 1);
    const next = new Promise<ServerSocket>((resolve) => t.io.once('connection', resolve));
    t.server.conn.close();
    answerJoins(await next, [], [answer([])]);
    await until(() => r.getState().restrictionsChanged === 2);
    r.stop();
  });

  it('a long absence is fetched page by page after the join', async () => {
    const joins: unknown[] = [];
    answerJoins(t.server, joins, [answer([msg(1)])]);
    const fetchPage = vi.fn(async (q: { after?: number }) =>
      q.after === 1 ? { messages: [msg(2), msg(3)], hasMore: true } : { messages: [msg(4)], hasMore: false },
    );
    const { r } = room(fetchPage);
    r.start();
    await until(() => r.getState().messages.length === 1);
    const next = new Promise<ServerSocket>((resolve) => t.io.once('connection', resolve));
    t.server.conn.close();
    answerJoins(await next, joins, [answer([], { hasNewer: true })]);
    await until(() => r.getState().messages.length === 4);
    expect(fetchPage.mock.calls.map(([q]) => q.after)).toEqual([1, 3]);
    r.stop();
  });

  it('a message whose acknowledgement was lost goes again under the same client id once back', async () => {
    const posts: Array<{ clientId: string }> = [];
    answerJoins(t.server, [], [answer([])]);
    // The first server swallows the post: its acknowledgement never comes.
    t.server.on(wire.post, (p: { clientId: string }) => void posts.push(p));
    const { r } = room();
    r.start();
    await until(() => r.getState().phase === 'open');
    r.send('hello');
    await until(() => posts.length === 1);
    const next = new Promise<ServerSocket>((resolve) => t.io.once('connection', resolve));
    t.server.conn.close();
    const again = await next;
    await until(() => r.getState().pending[0]?.status === 'failed');
    answerJoins(again, [], [answer([])]);
    again.on(wire.post, (p: { clientId: string }, ack: (a: unknown) => void) => {
      posts.push(p);
      ack({ ok: true, message: msg(1, { senderId: 'u1', text: 'hello', clientId: p.clientId }) });
    });
    await until(() => r.getState().messages.length === 1);
    expect(posts[1]!.clientId).toBe(posts[0]!.clientId);
    expect(r.getState().pending).toEqual([]);
    r.stop();
  }, 20_000);

  it('a post refused as retryable (the chat moving between servers) goes again by itself under its client id, without a word', async () => {
    const posts: Array<{ clientId: string }> = [];
    answerJoins(t.server, [], [answer([])]);
    t.server.on(wire.post, (p: { clientId: string }, ack: (a: unknown) => void) => {
      posts.push(p);
      if (posts.length === 1) ack({ ok: false, message: 'The server is restarting. Try again.', code: 'unavailable', retryAfterS: 0.05 });
      else ack({ ok: true, message: msg(1, { senderId: 'u1', text: 'hello', clientId: p.clientId }) });
    });
    const { r, notify } = room();
    r.start();
    await until(() => r.getState().phase === 'open');
    r.send('hello');
    await until(() => r.getState().messages.length === 1);
    expect(posts).toHaveLength(2);
    expect(posts[1]!.clientId).toBe(posts[0]!.clientId);
    expect(r.getState().pending).toEqual([]);
    expect(notify).not.toHaveBeenCalled();
    r.stop();
  });

  it('a refusal or a removal is shown; payloads of other rooms are ignored', async () => {
    answerJoins(t.server, [], [answer([msg(1)])]);
    const { r } = room();
    r.start();
    await until(() => r.getState().phase === 'open');
    t.server.emit(wire.message, msg(9, { roomId: 'another' }));
    t.server.emit(wire.typing, { roomId: ROOM, userId: 'u2', username: 'bob', typing: true });
    await until(() => r.getState().typing.u2 === 'bob');
    t.server.emit(wire.removed, { roomId: ROOM, reason: 'kicked', by: 'ann', note: 'ann removed you from this room.' });
    await until(() => r.getState().phase === 'removed');
    expect(r.getState().messages.map((m) => m.id)).toEqual([1]);
    expect(r.getState().removed?.note).toBe('ann removed you from this room.');
    r.stop();
  });

  it('a group room on a hosted channel: it follows the channel before joining, hears it like the socket, and catches up after a gap', async () => {
    const joins: unknown[] = [];
    answerJoins(t.server, joins, [answer([msg(1)]), answer([msg(3)])]);
    let attach: () => void = () => undefined;
    let deliver: (name: string, data: unknown) => void = () => undefined;
    let gap: () => void = () => undefined;
    let problem: (p: { message: string }) => void = () => undefined;
    const stop = vi.fn();
    const followHosted = vi.fn((_roomId: string, onEvent: typeof deliver, onGap: typeof gap, onProblem: typeof problem) => {
      deliver = onEvent;
      gap = onGap;
      problem = onProblem;
      return new Promise<() => void>((resolve) => (attach = () => resolve(stop)));
    });
    const notify = vi.fn();
    const r = createStoredRoom({ roomId: ROOM, fetchPage: vi.fn(), notify, followHosted });
    r.start();
    await until(() => followHosted.mock.calls.length === 1);
    // Not joined while the channel is not followed yet: a message published meanwhile would be lost.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(joins).toEqual([]);
    attach();
    await until(() => r.getState().phase === 'open');
    expect(followHosted.mock.calls[0]![0]).toBe(ROOM);
    deliver(wire.message, msg(2));
    deliver(wire.typing, { roomId: ROOM, userId: 'u2', username: 'bob', typing: true });
    await until(() => r.getState().messages.length === 2 && r.getState().typing.u2 === 'bob');
    // The channel attached again without resuming: the page asks for what came after its last id.
    gap();
    await until(() => r.getState().messages.length === 3);
    expect(joins).toEqual([{ roomId: ROOM }, { roomId: ROOM, after: 2 }]);
    // The channel's token call failing is told to the user in the real-time client's words.
    problem({ message: 'Request timed out' });
    expect(notify).toHaveBeenCalledWith({
      title: 'New messages in this room are delayed',
      description: 'Request timed out. Parley keeps trying; reload the page if it lasts.',
    });
    r.stop();
    await until(() => stop.mock.calls.length === 1);
  });
});
