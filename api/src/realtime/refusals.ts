import type { ZodType } from 'zod';
import { chatEvents, type SocketError } from '@parley/contract/matchmaking';
import type { Logger } from '../platform/logger.ts';
import { errorIn } from '../platform/i18n/errors.ts';
import type { AppSocket } from './server.ts';

/** A socket event refused for a reason the user can read and act on; any other error answers `internal`. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * An error event or refused acknowledgement in the socket's language (its page's, told at the
 * handshake), as HTTP errors are in the request's: the catalog's words when it has the message.
 */
export function inSocketLanguage<E extends { message: string }>(socket: Pick<AppSocket, 'data'> | undefined, error: E): E {
  const locale = socket?.data.locale;
  return locale ? { ...error, message: errorIn(locale, error.message) } : error;
}

/** Invalid events a socket may send in INVALID_WINDOW_MS; one more and it is disconnected. */
export const MAX_INVALID_EVENTS = 20;
const INVALID_WINDOW_MS = 10_000;

/**
 * Counts an event that failed validation; a socket that keeps sending them is a probe or a broken
 * client, and is disconnected rather than answered forever.
 */
export function reportInvalid(socket: AppSocket, now = Date.now()): void {
  const w = socket.data.invalid;
  if (!w || now - w.since > INVALID_WINDOW_MS) socket.data.invalid = { count: 1, since: now };
  else if (++w.count > MAX_INVALID_EVENTS) socket.disconnect(true);
}

const firstIssue = (error: { issues: Array<{ message: string }> }) => error.issues[0]?.message ?? 'Invalid request';

/** Parses an event's payload with its contract schema; the first issue is the refusal. */
export function parseEvent<T>(schema: ZodType<T>, payload: unknown): T {
  const r = schema.safeParse(payload);
  if (!r.success) throw new Refusal(firstIssue(r.error), 'validation_failed');
  return r.data;
}

/** Tells the socket why `event` was refused (`chat:error`, the error event of every realtime area); logs what was not a refusal. */
export function refuse(socket: AppSocket, log: Logger, event: string, err: unknown, searchId?: string) {
  const e: SocketError =
    err instanceof Refusal
      ? { event, message: err.message, code: err.code }
      : { event, message: 'Something went wrong on our side. Please try again.', code: 'internal' };
  if (searchId !== undefined) e.searchId = searchId;
  if (!(err instanceof Refusal)) log.error({ err, event }, 'socket event failed');
  socket.emit(chatEvents.error, inSocketLanguage(socket, e));
  if (e.code === 'validation_failed') reportInvalid(socket);
}

/**
 * Refuses an event whose client asked for an acknowledgement: a Refusal goes there (the UI marks
 * what it sent), anything else as `chat:error`. Invalid payloads count towards the cut-off either way.
 */
export function refuseWithAck(
  socket: AppSocket,
  log: Logger,
  event: string,
  err: unknown,
  ack: ((answer: { ok: false; message: string; code: string }) => void) | undefined,
) {
  if (!ack || !(err instanceof Refusal)) return refuse(socket, log, event, err);
  ack(inSocketLanguage(socket, { ok: false as const, message: err.message, code: err.code }));
  if (err.code === 'validation_failed') reportInvalid(socket);
}

/** An event's payload and its acknowledgement callback, when the client asked for one (the last argument). */
export function withAck<A>(args: unknown[]): { payload: unknown; ack: ((answer: A) => void) | undefined } {
  const last = args[args.length - 1];
  if (typeof last !== 'function') return { payload: args[0], ack: undefined };
  return { payload: args.length > 1 ? args[0] : undefined, ack: last as (answer: A) => void };
}

/** Disconnect reasons of a connection that was lost rather than closed (socket.io's list). */
const DROPPED = new Set(['transport close', 'transport error', 'ping timeout']);

/**
 * Dropped, not closed by the page nor by the server on purpose: what the socket was in may come
 * back. A socket told to reconnect elsewhere (its server drains) counts as dropped however it ends.
 */
export const wasDropped = (socket: AppSocket, reason: string) =>
  DROPPED.has(reason) || socket.data.replaced === true || socket.data.restarting === true;

/** The key a page's held room is kept under (its user and tab), when the page named itself. */
export const resumeKeyOf = (socket: AppSocket) =>
  socket.data.tab === undefined ? undefined : `${socket.data.user.userId}:${socket.data.tab}`;
