import type { ZodType } from 'zod';
import {
  chatEvents,
  chatSettingsSchema,
  resumeSchema,
  MESSAGE_DELIVERY_TIMEOUT_MS,
  nextSearchSchema,
  sendMessageSchema,
  startSearchSchema,
  typingSchema,
  type MessageAck,
  type ResumeAnswer,
  type SocketError,
} from '@parley/contract/chat';
import { rtcEvents, callRedialSchema } from '@parley/contract/rtc';
import { reportInvalid, type AppIo, type AppSocket } from '../realtime/server.ts';
import type { Logger } from '../platform/logger.ts';
import { ChatError, type ChatOutbox, type ChatSessions } from './sessions.ts';

/** The chat's outbox over socket.io: a local socket directly, any other through the adapter. */
export function socketOutbox(io: AppIo): ChatOutbox {
  const local = (id: string) => io.sockets.sockets.get(id);
  const emit = (id: string, ev: string, payload: unknown) => (local(id) ?? io.to(id)).emit(ev, payload);
  return {
    searching: (id, state) => emit(id, chatEvents.searching, state),
    matched: (id, setup) => emit(id, chatEvents.matched, setup),
    partnerLeft: (id, left) => emit(id, chatEvents.partnerLeft, left),
    typing: (id, typing) => emit(id, chatEvents.typing, typing),
    partnerAway: (id, away) => emit(id, chatEvents.partnerAway, away),
    partnerBack: (id, back) => emit(id, chatEvents.partnerBack, back),
    redial: (id, redial) => emit(id, rtcEvents.redial, redial),
    error: (id, error) => emit(id, chatEvents.error, error),
    deliver(id, message, done) {
      // The partner's client acknowledges receipt; silence means not delivered.
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
/** An event's payload and its acknowledgement callback, when the client asked for one (the last argument). */
function withAck<A>(args: unknown[]): { payload: unknown; ack: ((answer: A) => void) | undefined } {
  const last = args[args.length - 1];
  if (typeof last !== 'function') return { payload: args[0], ack: undefined };
  return { payload: args.length > 1 ? args[0] : undefined, ack: last as (answer: A) => void };
}
/** Disconnect reasons of a connection that was lost rather than closed (socket.io's list). */
const DROPPED = new Set(['transport close', 'transport error', 'ping timeout']);
const firstIssue = (error: { issues: Array<{ message: string }> }) => error.issues[0]?.message ?? 'Invalid request';

/** Thin socket handlers: parse with the contract schemas, call the chat sessions, answer errors. */
export type ChatAllowances = {
  /** Start and skip. */
  control(userId: string): boolean;
  /** Typing indicators: each is relayed to the partner's screen. */
  typing(userId: string): boolean;
};

export function attachChatSockets(io: AppIo, sessions: ChatSessions, log: Logger, allow: ChatAllowances) {
  io.on('connection', (socket: AppSocket) => {
    const user = socket.data.user;
    sessions.connect(socket.id, user, socket.data.sid);

    const fail = (event: string, err: unknown, searchId?: string) => {
      const e: SocketError =
        err instanceof ChatError
          ? { event, message: err.message, code: err.code }
          : { event, message: 'Something went wrong on our side. Please try again.', code: 'internal' };
      if (searchId !== undefined) e.searchId = searchId;
      if (!(err instanceof ChatError)) log.error({ err, event }, 'chat event failed');
      socket.emit(chatEvents.error, e);
      if (e.code === 'validation_failed') reportInvalid(socket);
    };
    const parse = <T>(schema: ZodType<T>, payload: unknown): T => {
      const r = schema.safeParse(payload);
      if (!r.success) throw new ChatError(firstIssue(r.error), 'validation_failed');
      return r.data;
    };
    // Start and skip query the database and touch the queue: limited so a loop cannot hammer them.
    const control = (event: string, searchId: string | undefined, run: () => Promise<void>, refused?: () => Promise<void>) => {
      if (!allow.control(user.userId)) {
        refused?.().catch((err: unknown) => log.error({ err, event }, 'chat event failed'));
        return fail(event, new ChatError('Too many searches in a row. Wait a moment and try again.', 'rate_limited'), searchId);
      }
      run().catch((err: unknown) => fail(event, err, searchId));
    };
    // The search id of a payload that failed validation as a whole, so the refusal still names it.
    const searchIdOf = (payload: unknown) => {
      const id = (payload as { searchId?: unknown } | null)?.searchId;
      return typeof id === 'string' && id.length <= 64 ? id : undefined;
    };

    // A page that names itself (tab id) can resume its chat (text or video) after its connection dropped.
    const resumeKey = socket.data.tab === undefined ? undefined : `${user.userId}:${socket.data.tab}`;

    socket.on(chatEvents.start, (payload: unknown) => {
      try {
        const search = parse(startSearchSchema, payload);
        control(chatEvents.start, search.searchId, () => sessions.start(socket.id, search, resumeKey));
      } catch (err) {
        fail(chatEvents.start, err, searchIdOf(payload));
      }
    });
    // A refused skip still ends the chat (the client has already left it); only the new search waits.
    socket.on(chatEvents.next, (payload: unknown) => {
      try {
        const searchId = parse(nextSearchSchema, payload)?.searchId;
        control(
          chatEvents.next,
          searchId,
          () => sessions.next(socket.id, searchId),
          () => sessions.stop(socket.id),
        );
      } catch (err) {
        sessions.stop(socket.id).catch((e: unknown) => log.error({ err: e }, 'chat stop failed'));
        fail(chatEvents.next, err, searchIdOf(payload));
      }
    });
    socket.on(chatEvents.settings, (payload: unknown) => {
      const r = chatSettingsSchema.safeParse(payload);
      if (r.success) sessions.setAutomaticReconnect(socket.id, r.data.automaticReconnect);
      else fail(chatEvents.settings, new ChatError(firstIssue(r.error), 'validation_failed'));
    });
    socket.on(chatEvents.stop, () => {
      sessions.stop(socket.id, resumeKey).catch((err: unknown) => fail(chatEvents.stop, err));
    });
    socket.on(chatEvents.typing, (payload: unknown) => {
      const r = typingSchema.safeParse(payload);
      if (!r.success) return fail(chatEvents.typing, new ChatError(firstIssue(r.error), 'validation_failed'));
      // Over the allowance "typing" is dropped; "stopped typing" always goes, or the partner would
      // see an indicator that never ends (the client sends changes only).
      if (!r.data.typing || allow.typing(user.userId)) sessions.typing(socket.id, r.data);
    });
    socket.on(chatEvents.message, (...args: unknown[]) => {
      const { payload, ack } = withAck<MessageAck>(args);
      // With an acknowledgement the error goes there (the UI marks the message failed), otherwise as chat:error.
      const refuse = (err: unknown) => {
        if (ack && err instanceof ChatError) {
          ack({ ok: false, message: err.message, code: err.code });
          if (err.code === 'validation_failed') reportInvalid(socket);
        } else fail(chatEvents.message, err);
      };
      try {
        const message = parse(sendMessageSchema, payload);
        sessions.send(socket.id, message, ack ?? ignore);
      } catch (err) {
        refuse(err);
      }
    });
    socket.on(chatEvents.resume, (...args: unknown[]) => {
      const { payload, ack } = withAck<ResumeAnswer>(args);
      if (!ack) return fail(chatEvents.resume, new ChatError('chat:resume needs an acknowledgement', 'validation_failed'));
      const r = resumeSchema.safeParse(payload);
      if (!r.success) return fail(chatEvents.resume, new ChatError(firstIssue(r.error), 'validation_failed'));
      ack(resumeKey === undefined ? { ok: false } : sessions.resume(socket.id, resumeKey, r.data.roomId));
    });
    // Placed again at most MAX_CALL_ATTEMPTS times a room; asks share the search allowance, so
    // that a loop of them cannot hammer the server with answers.
    socket.on(rtcEvents.redial, (payload: unknown) => {
      try {
        const ask = parse(callRedialSchema, payload);
        if (!allow.control(user.userId)) throw new ChatError('Too many requests in a row. Wait a moment and try again.', 'rate_limited');
        sessions.redial(socket.id, ask);
      } catch (err) {
        fail(rtcEvents.redial, err);
      }
    });
    socket.on('disconnect', (reason: string) => {
      // Dropped (not closed by the page, nor by the server on purpose): the chat may come back.
      const dropped = DROPPED.has(reason) || socket.data.replaced === true;
      sessions.disconnect(socket.id, dropped ? resumeKey : undefined).catch((err: unknown) => log.error({ err }, 'chat disconnect failed'));
    });
  });
}
