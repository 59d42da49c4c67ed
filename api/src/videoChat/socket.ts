import { rtcEvents, callRedialSchema } from '@parley/contract/videoChat';
import type { AppIo, AppSocket } from '../realtime/server.ts';
import { socketEmitter } from '../realtime/emit.ts';
import { socketEvents } from '../realtime/dispatch.ts';
import type { Logger } from '../platform/logger.ts';
import { parseEvent, Refusal, refuse } from '../realtime/refusals.ts';
import type { CallOutbox, VideoCalls } from './calls.ts';

/** The calls' outbox over socket.io: a local socket directly, any other through the adapter. */
export function socketOutbox(io: AppIo): CallOutbox {
  const { emit, refuse: refuseTo } = socketEmitter(io);
  return {
    redial: (id, redial) => emit(id, rtcEvents.redial, redial),
    error: refuseTo,
  };
}

/**
 * Thin socket handler of the video call's redial. Placed again at most MAX_CALL_ATTEMPTS times a
 * room; asks share the search allowance, so that a loop of them cannot hammer the server with answers.
 */
export function attachCallSockets(io: AppIo, calls: VideoCalls, log: Logger, allow: (userId: string) => boolean) {
  socketEvents(io).on(rtcEvents.redial, (socket: AppSocket, [payload]) => {
    try {
      const ask = parseEvent(callRedialSchema, payload);
      if (!allow(socket.data.user.userId)) throw new Refusal('Too many requests in a row. Wait a moment and try again.', 'rate_limited');
      calls.redial(socket.id, ask);
    } catch (err) {
      refuse(socket, log, rtcEvents.redial, err);
    }
  });
}
