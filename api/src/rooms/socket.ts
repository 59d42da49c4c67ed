import { chatEvents, resumeSchema, type ResumeAnswer } from '@parley/contract/matchmaking';
import type { AppIo, AppSocket } from '../realtime/server.ts';
import { socketEmitter } from '../realtime/emit.ts';
import { socketEvents } from '../realtime/dispatch.ts';
import type { Logger } from '../platform/logger.ts';
import { parseEvent, Refusal, refuse, resumeKeyOf, wasDropped, withAck } from '../realtime/refusals.ts';
import type { RoomOutbox, Rooms } from './rooms.ts';
import { SharedRooms } from './sharedRooms.ts';

/** The rooms' outbox over socket.io: a local socket directly, any other through the adapter. */
export function socketOutbox(io: AppIo): RoomOutbox {
  const { emit } = socketEmitter(io);
  return {
    memberLeft: (id, left) => emit(id, chatEvents.partnerLeft, left),
    memberAway: (id, away) => emit(id, chatEvents.partnerAway, away),
    memberBack: (id, back) => emit(id, chatEvents.partnerBack, back),
  };
}

/**
 * Thin socket handlers of the 1:1 rooms' life: taking a held room back, and the socket's drop
 * (their conversation's events are the room core's). Attached before the areas that follow rooms,
 * so that a drop holds the room first.
 */
export function attachRoomSockets(io: AppIo, rooms: Rooms, log: Logger) {
  const events = socketEvents(io);
  io.on('connection', (socket: AppSocket) => {
    // A page that names itself (tab id) can take its room back after its connection dropped.
    rooms.connect(socket.id, socket.data.user, socket.data.sid, resumeKeyOf(socket));
  });
  events.on(chatEvents.resume, (socket, args) => {
    const { payload, ack } = withAck<ResumeAnswer>(args);
    if (!ack) return refuse(socket, log, chatEvents.resume, new Refusal('chat:resume needs an acknowledgement', 'validation_failed'));
    try {
      const { roomId } = parseEvent(resumeSchema, payload);
      const resumeKey = resumeKeyOf(socket);
      const here: ResumeAnswer = resumeKey === undefined ? { ok: false } : rooms.resume(socket.id, resumeKey, roomId);
      // Scaled out, the room may have been held (or its socket lived) in another process.
      if (here.ok || here.partnerLeft || resumeKey === undefined || !(rooms instanceof SharedRooms)) return ack(here);
      rooms.resumeElsewhere(socket.id, resumeKey, roomId).then(ack, (err: unknown) => {
        log.error({ err }, 'resume from another process failed');
        ack({ ok: false });
      });
    } catch (err) {
      refuse(socket, log, chatEvents.resume, err);
    }
  });
  events.onDisconnect((socket, reason) => {
    try {
      rooms.disconnect(socket.id, wasDropped(socket, reason) ? resumeKeyOf(socket) : undefined);
    } catch (err) {
      log.error({ err }, 'room disconnect failed');
    }
  });
}
