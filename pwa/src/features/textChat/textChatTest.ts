import { expect, vi } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import type { Socket as ServerSocket } from 'socket.io';
import { chatEvents, type RoomSetup } from '@parley/contract/matchmaking';
import type { RoomConnection, RoomNotify } from '../../realtime/roomConnection';
import searchPreferencesReducer from '../../realtime/searchPreferences';
import { setUpSocketServer, type SocketServerTest } from '../../realtime/testing/socketServer';
import chatReducer from './chatSlice';
import { createTextChatRoom, type TextChatRoot } from './textChatRoom';

const makeStore = () => configureStore({ reducer: { chat: chatReducer, searchPreferences: searchPreferencesReducer } });

export type TextChatTest = SocketServerTest & {
  store: ReturnType<typeof makeStore>;
  /** The text chat under test, a fresh one for each test. */
  room: RoomConnection<TextChatRoot>;
  /** Events the server received (messages are answered by each test itself). */
  received: Array<[string, unknown]>;
  notices: Parameters<RoomNotify>[0][];
  notify: RoomNotify;
  /** Searched and matched in room-1. */
  matched(): Promise<void>;
  /** Waits for the server to receive `name` and takes it off `received`. */
  nextEvent(name: string): Promise<unknown>;
  /** The next connection, answering `chat:resume` as given. */
  nextConnection(answer: unknown): Promise<ServerSocket>;
};

export const setup: RoomSetup = {
  roomId: 'room-1',
  roomType: 'textChat',
  receiver: { userId: 'u2', username: 'bob', avatar: '', age: 30, gender: 'male', sharedTopics: ['chess'] },
  noCommonTopic: false,
  initiator: false,
};

/** The text chat attached to a page whose socket is connected to a test server, for each test. */
export function setUpTextChat(): TextChatTest {
  const c = {
    notify: (n) => c.notices.push(n),
    async matched() {
      c.store.dispatch(c.room.startSearch(c.notify));
      await c.nextEvent(chatEvents.start);
      c.server.emit(chatEvents.searching, { roomType: 'textChat', requeued: false });
      c.server.emit(chatEvents.matched, setup);
      await vi.waitFor(() => expect(c.store.getState().chat.roomId).toBe('room-1'));
    },
    async nextEvent(name) {
      await vi.waitFor(() => expect(c.received.some(([n]) => n === name)).toBe(true));
      const i = c.received.findIndex(([n]) => n === name);
      return c.received.splice(i, 1)[0]![1];
    },
    nextConnection: (answer) =>
      new Promise<ServerSocket>((resolve) =>
        c.io.once('connection', (sock: ServerSocket) => {
          sock.on(chatEvents.resume, (payload: unknown, ack: (a: unknown) => void) => {
            c.received.push([chatEvents.resume, payload]);
            ack(answer);
          });
          resolve(sock);
        }),
      ),
  } as Partial<TextChatTest> as TextChatTest;
  setUpSocketServer(c, {
    beforeConnect() {
      c.received = [];
      c.notices = [];
      c.store = makeStore();
      c.room = createTextChatRoom();
      const detach = c.store.dispatch(c.room.attach(c.notify));
      return () => {
        detach();
        c.room.dispose();
      };
    },
    connected(server) {
      server.onAny((name: string, payload: unknown) => {
        c.received.push([name, payload]);
      });
    },
  });
  return c;
}
