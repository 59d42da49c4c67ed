import { chatEvents, MESSAGE_DELIVERY_TIMEOUT_MS, resumeSchema, sendMessageSchema, typingSchema } from '@parley/contract/chat';
import type { MessageAck, ResumeAnswer } from '@parley/contract/chat';
import type { AppIo, AppSocket } from '../realtime/server.ts';
import { socketEmitter } from '../realtime/emit.ts';
import type { Logger } from '../platform/logger.ts';
import { parseEvent, Refusal, refuse, refuseWithAck, resumeKeyOf, wasDropped, withAck } from '../realtime/refusals.ts';
import type { RoomOutbox, Rooms } from './rooms.ts';
import { SharedRooms } from './sharedRooms.ts';

/** The rooms' outbox over socket.io: a local socket directly, any other through the adapter. */
export function socketOutbox(io: AppIo): RoomOutbox {
  const { local, emit } = socketEmitter(io);
  return {
    memberLeft: (id, left) => emit(id, chatEvents.partnerLeft, left),
    typing: (id, typing) => emit(id, chatEvents.typing, typing),
    memberAway: (id, away) => emit(id, chatEvents.partnerAway, away),
    memberBack: (id, back) => emit(id, chatEvents.partnerBack, back),
    deliver(id, message, done) {
      // The receiver's client acknowledges receipt; silence means not delivered.
      const socket = local(id);
      if (socket) socket.timeout(MESSAGE_DELIVERY_TIMEOUT_MS).emit(chatEvents.message, message, (err: unknown) => done(!err));
      // Through the adapter the answer is the list of acknowledgements: empty when the socket is gone.
      else
        io.to(id)
          .timeout(MESSAGE_DELIVERY_TIMEOUT_MS)
          .emit(chatEvents.message, message, (err: unknown, acks: unknown[]) => done(!err && acks.length > 0));
    },
  };
}

const ignore = () => undefined;

/**
 * Thin socket handlers of rooms: messages, typing, taking a held room back, and the socket's
 * drop. Attached before the areas that follow rooms, so that a drop holds the room first.
 */
export function attachRoomSockets(io: AppIo, rooms: Rooms, log: Logger, allowTyping: (userId: string) => boolean) {
  io.on('connection', (socket: AppSocket) => {
    const user = socket.data.user;
    // A page that names itself (tab id) can take its room back after its connection dropped.
    const resumeKey = resumeKeyOf(socket);
    rooms.connect(socket.id, user, socket.data.sid, resumeKey);

    socket.on(chatEvents.typing, (payload: unknown) => {
      try {
        const typing = parseEvent(typingSchema, payload);
        // Over the allowance "typing" is dropped; "stopped typing" always goes, or the partner would
        // see an indicator that never ends (the client sends changes only).
        if (!typing.typing || allowTyping(user.userId)) rooms.typing(socket.id, typing);
      } catch (err) {
        refuse(socket, log, chatEvents.typing, err);
      }
    });
    socket.on(chatEvents.message, (...args: unknown[]) => {
      const { payload, ack } = withAck<MessageAck>(args);
      try {
        rooms.send(socket.id, parseEvent(sendMessageSchema, payload), ack ?? ignore);
      } catch (err) {
        refuseWithAck(socket, log, chatEvents.message, err, ack);
      }
    });
    socket.on(chatEvents.resume, (...args: unknown[]) => {
      const { payload, ack } = withAck<ResumeAnswer>(args);
      if (!ack) return refuse(socket, log, chatEvents.resume, new Refusal('chat:resume needs an acknowledgement', 'validation_failed'));
      try {
        const { roomId } = parseEvent(resumeSchema, payload);
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
    socket.on('disconnect', (reason: string) => {
      try {
        rooms.disconnect(socket.id, wasDropped(socket, reason) ? resumeKey : undefined);
      } catch (err) {
        log.error({ err }, 'room disconnect failed');
      }
    });
  });
}
