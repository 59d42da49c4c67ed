import { EV } from '@parley/contract/chat';
import type { AppIo, AppSocket } from '../realtime/server.ts';

/**
 * Who is in which video room right now, as the chat server announced it: recorded from the
 * `chat:matched` {roomType: 'videoChat'} a socket is sent, forgotten when that socket is told its
 * partner left, asks for a new search / stop / next, or disconnects. The peer-ticket route asks
 * it, so a ticket (and the partner's peer id) goes only to the two users the matchmaker paired.
 * It watches the sockets of this process; with several API processes the ticket request must
 * reach the process holding the user's socket (sticky sessions, as socket.io needs anyway).
 */
export type VideoRoomPairing = {
  partnerOf(roomId: string, userId: string): Promise<string | null>;
  attach(io: AppIo): void;
};

type Seat = { userId: string; partnerId: string };

const matchedShape = (p: unknown): { roomId: string; roomType: string; partnerId: string } | null => {
  if (typeof p !== 'object' || p === null) return null;
  const { roomId, roomType, receiver } = p as { roomId?: unknown; roomType?: unknown; receiver?: { userId?: unknown } };
  if (typeof roomId !== 'string' || typeof roomType !== 'string' || typeof receiver?.userId !== 'string') return null;
  return { roomId, roomType, partnerId: receiver.userId };
};

export function createVideoRoomPairing(): VideoRoomPairing {
  const rooms = new Map<string, Map<string, Seat>>();
  const roomOfSocket = new Map<string, string>();

  const forget = (socketId: string) => {
    const roomId = roomOfSocket.get(socketId);
    if (roomId === undefined) return;
    roomOfSocket.delete(socketId);
    const seats = rooms.get(roomId);
    seats?.delete(socketId);
    if (seats?.size === 0) rooms.delete(roomId);
  };

  const seat = (socket: AppSocket, roomId: string, partnerId: string) => {
    forget(socket.id);
    let seats = rooms.get(roomId);
    if (!seats) rooms.set(roomId, (seats = new Map()));
    seats.set(socket.id, { userId: socket.data.user.userId, partnerId });
    roomOfSocket.set(socket.id, roomId);
  };

  const leavingEvents = new Set<string>([EV.start, EV.stop, EV.next]);

  return {
    async partnerOf(roomId, userId) {
      for (const s of rooms.get(roomId)?.values() ?? []) if (s.userId === userId) return s.partnerId;
      return null;
    },
    attach(io) {
      io.on('connection', (socket: AppSocket) => {
        socket.onAnyOutgoing((event: string, payload: unknown) => {
          if (event === EV.matched) {
            const m = matchedShape(payload);
            if (m?.roomType === 'videoChat') seat(socket, m.roomId, m.partnerId);
            else forget(socket.id);
          } else if (event === EV.partnerLeft) {
            forget(socket.id);
          }
        });
        // Start, stop and next all leave the current room (listeners of onAny run before the chat's own).
        socket.onAny((event: string) => {
          if (leavingEvents.has(event)) forget(socket.id);
        });
        socket.on('disconnect', () => forget(socket.id));
      });
    },
  };
}
