import { expect, vi } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import type { Socket as ServerSocket } from 'socket.io';
import { chatEvents, type RoomSetup } from '@parley/contract/matchmaking';
import type { RoomNotify } from '../../realtime/roomConnection';
import searchPreferencesReducer from '../../realtime/searchPreferences';
import { setUpSocketServer, type SocketServerTest } from '../../realtime/testing/socketServer';
import videoChatReducer from './videoChatSlice';
import { createVideoChatRoom, type VideoChatRoom } from './videoChatRoom';

const makeStore = () => configureStore({ reducer: { videoChat: videoChatReducer, searchPreferences: searchPreferencesReducer } });

export type VideoChatTest = SocketServerTest & {
  store: ReturnType<typeof makeStore>;
  /** The video chat under test, a fresh one for each test. */
  room: VideoChatRoom;
  /** Names of the events the server received on the first connection. */
  received: string[];
  notices: Parameters<RoomNotify>[0][];
  notify: RoomNotify;
  /** Matched in a video room, the call being set up. */
  inRoom(): Promise<void>;
  /** The next connection, answering `chat:resume` as given. */
  nextConnection(answer: unknown): Promise<ServerSocket>;
};

export const setup: RoomSetup = {
  roomId: 'room-1',
  roomType: 'videoChat',
  receiver: { userId: 'u2', username: 'bob', avatar: '', age: 30, gender: 'male', sharedTopics: [] },
  noCommonTopic: false,
  initiator: true,
};

/** The video chat attached to a page whose socket is connected to a test server, for each test. */
export function setUpVideoChat(): VideoChatTest {
  const c = {
    notify: (n) => c.notices.push(n),
    async inRoom() {
      c.store.dispatch(c.room.startSearch(c.notify));
      await vi.waitFor(() => expect(c.received).toContain(chatEvents.start));
      c.server.emit(chatEvents.matched, setup);
      await vi.waitFor(() => expect(c.store.getState().videoChat.roomId).toBe('room-1'));
    },
    nextConnection: (answer) =>
      new Promise<ServerSocket>((resolve) =>
        c.io.once('connection', (sock: ServerSocket) => {
          sock.on(chatEvents.resume, (_p: unknown, ack: (a: unknown) => void) => ack(answer));
          resolve(sock);
        }),
      ),
  } as Partial<VideoChatTest> as VideoChatTest;
  setUpSocketServer(c, {
    beforeConnect() {
      c.received = [];
      c.notices = [];
      c.store = makeStore();
      c.room = createVideoChatRoom();
      const detach = c.store.dispatch(c.room.attach(c.notify));
      return () => {
        detach();
        c.room.dispose();
      };
    },
    connected(server) {
      server.onAny((name: string) => c.received.push(name));
    },
  });
  return c;
}
