import { chatEvents, chatSettingsSchema, nextSearchSchema, startSearchSchema } from '@parley/contract/matchmaking';
import type { AppIo, AppSocket } from '../realtime/server.ts';
import { socketEmitter } from '../realtime/emit.ts';
import { socketEvents } from '../realtime/dispatch.ts';
import type { Logger } from '../platform/logger.ts';
import { parseEvent, Refusal, refuse, resumeKeyOf } from '../realtime/refusals.ts';
import type { SearchOutbox, Searches } from './searches.ts';
import { countryOfAddress } from '../platform/geo.ts';
import { languagesOfHeader } from './matchProfile.ts';

/** The searches' outbox over socket.io: a local socket directly, any other through the adapter. */
export function socketOutbox(io: AppIo): SearchOutbox {
  const { emit, refuse: refuseTo } = socketEmitter(io);
  return {
    searching: (id, state) => emit(id, chatEvents.searching, state),
    matched: (id, setup) => emit(id, chatEvents.matched, setup),
    partnerAway: (id, away) => emit(id, chatEvents.partnerAway, away),
    error: refuseTo,
    status: (id, status) => emit(id, chatEvents.searchStatus, status),
  };
}

/** Start and skip: they query the database and touch the queue. */
export type SearchAllowance = (userId: string) => boolean;

/** Thin socket handlers of searches: parse with the contract schemas, call the searches, answer refusals. */
export function attachChatSockets(io: AppIo, searches: Searches, log: Logger, allowControl: SearchAllowance) {
  const events = socketEvents(io);
  // Start and skip are limited so a loop cannot hammer the database and the queue.
  const control = (
    socket: AppSocket,
    event: string,
    searchId: string | undefined,
    run: () => Promise<void>,
    refused?: () => Promise<void>,
  ) => {
    if (!allowControl(socket.data.user.userId)) {
      refused?.().catch((err: unknown) => log.error({ err, event }, 'chat event failed'));
      return refuse(socket, log, event, new Refusal('Too many searches in a row. Wait a moment and try again.', 'rate_limited'), searchId);
    }
    run().catch((err: unknown) => refuse(socket, log, event, err, searchId));
  };
  // The search id of a payload that failed validation as a whole, so the refusal still names it.
  const searchIdOf = (payload: unknown) => {
    const id = (payload as { searchId?: unknown } | null)?.searchId;
    return typeof id === 'string' && id.length <= 64 ? id : undefined;
  };

  io.on('connection', (socket: AppSocket) => {
    // A page that names itself (tab id) can have a room held for it after its connection dropped.
    searches.connect(
      socket.id,
      socket.data.user,
      resumeKeyOf(socket),
      countryOfAddress(socket.data.address ?? socket.handshake.address),
      languagesOfHeader(socket.handshake.headers['accept-language']),
    );
  });

  events.on(chatEvents.start, (socket, [payload]) => {
    try {
      const search = parseEvent(startSearchSchema, payload);
      control(socket, chatEvents.start, search.searchId, () => searches.start(socket.id, search, resumeKeyOf(socket)));
    } catch (err) {
      refuse(socket, log, chatEvents.start, err, searchIdOf(payload));
    }
  });
  // A refused skip still ends the chat (the client has already left it); only the new search waits.
  events.on(chatEvents.next, (socket, [payload]) => {
    try {
      const searchId = parseEvent(nextSearchSchema, payload)?.searchId;
      control(
        socket,
        chatEvents.next,
        searchId,
        () => searches.next(socket.id, searchId),
        () => searches.stop(socket.id),
      );
    } catch (err) {
      searches.stop(socket.id).catch((e: unknown) => log.error({ err: e }, 'chat stop failed'));
      refuse(socket, log, chatEvents.next, err, searchIdOf(payload));
    }
  });
  events.on(chatEvents.settings, (socket, [payload]) => {
    try {
      searches.setAutomaticReconnect(socket.id, parseEvent(chatSettingsSchema, payload).automaticReconnect);
    } catch (err) {
      refuse(socket, log, chatEvents.settings, err);
    }
  });
  events.on(chatEvents.stop, (socket) => {
    searches.stop(socket.id, resumeKeyOf(socket)).catch((err: unknown) => refuse(socket, log, chatEvents.stop, err));
  });
  // After the rooms' own hook (attached first): a held room keeps the search for its page.
  events.onDisconnect((socket) => {
    searches.disconnect(socket.id).catch((err: unknown) => log.error({ err }, 'chat disconnect failed'));
  });
}
