import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import type { z } from 'zod';
import {
  chatEvents,
  partnerPresenceSchema,
  chatFiltersSchema,
  chatMessageSchema,
  partnerLeftSchema,
  roomSetupSchema,
  searchingSchema,
  socketErrorSchema,
  typingSchema,
  type RoomSetup,
  type RoomType,
  type SocketError,
} from '@parley/contract/chat';
import {
  checkPayload,
  emitSocket,
  getSocketStatus,
  offlineNotice as offline,
  onSocketEvent,
  subscribeSocketStatus,
} from '../../realtime/socket';
import { resendWaiting, retryRoomMessage, sendRoomMessage, type MessageTrack } from '../../lib/messaging';
import { endHeldChatWhenBack, stopOnServer, takeBackHeldRoom } from '../../lib/resume';
import { createSearchTicket, newSearchId } from '../../lib/searchTicket';
import type { SocketNotice } from '../../realtime/socket';
import { chatActions, type ChatState } from './chatSlice';

/**
 * The text chat's side of the realtime connection: server events become chat actions here,
 * and user intents (start, stop, next, send, typing) become socket events. Components only
 * dispatch these thunks and read the slice.
 */

type ChatRootState = { chat: ChatState };
type ChatThunk<R = void> = ThunkAction<R, ChatRootState, unknown, UnknownAction>;
export type ChatNotice = SocketNotice;
type Notify = (notice: ChatNotice) => void;

const ROOM_TYPE: RoomType = 'textChat';

// Server-to-client payloads are checked too: a malformed event is logged, never rendered.
const parseOrLog = <T>(schema: z.ZodType<T>, event: string, payload: unknown) => checkPayload('chat', schema, event, payload);

/**
 * The search under way, from the user's Start or Next until their Stop (or leaving the page). A
 * `matched` or `searching` that answers an older search (it crossed a Stop, or a Stop and a new
 * Start, on the way) is ignored: the server ends that room when the Stop arrives, and the partner
 * is told. A requeue the server starts (the partner left, automatic reconnect on) answers the
 * search under way, so it still shows.
 */
const search = createSearchTicket();

/** Subscribes the chat to the socket; returns the unsubscribe. `notify` shows a toast. */
export function attachChatSocket(notify: Notify): ChatThunk<() => void> {
  return (dispatch, getState) => {
    let wasConnected = getSocketStatus() === 'connected';
    const offs = [
      onSocketEvent(chatEvents.searching, (payload: unknown) => {
        const p = parseOrLog(searchingSchema, chatEvents.searching, payload);
        if (p && p.roomType === ROOM_TYPE && search.owns(p.searchId)) dispatch(chatActions.searching({ requeued: p.requeued }));
      }),
      onSocketEvent(chatEvents.matched, (payload: unknown) => {
        const p = parseOrLog(roomSetupSchema, chatEvents.matched, payload) as (RoomSetup & { roomType: string }) | null;
        if (p && p.roomType === ROOM_TYPE && search.owns(p.searchId)) dispatch(chatActions.roomSetup(p));
      }),
      onSocketEvent(chatEvents.message, (payload: unknown, ack?: (a: unknown) => void) => {
        const m = parseOrLog(chatMessageSchema, chatEvents.message, payload);
        const { roomId } = getState().chat;
        if (!m || !roomId) return;
        // A resend of a message that had arrived after all is acknowledged again, not shown twice.
        dispatch(chatActions.addMessage({ ...m, from: 'stranger', status: 'delivered' }));
        // The delivery receipt: the sender's message turns from sent to delivered.
        if (typeof ack === 'function') ack({ ok: true, id: m.id });
      }),
      onSocketEvent(chatEvents.typing, (payload: unknown) => {
        const t = parseOrLog(typingSchema, chatEvents.typing, payload);
        if (t && getState().chat.roomId) dispatch(chatActions.setPartnerTyping(t.typing));
      }),
      onSocketEvent(chatEvents.partnerLeft, (payload: unknown) => {
        const p = parseOrLog(partnerLeftSchema, chatEvents.partnerLeft, payload);
        if (p && p.roomId === getState().chat.roomId) dispatch(chatActions.peerLeft());
      }),
      ...(
        [
          [chatEvents.partnerAway, true],
          [chatEvents.partnerBack, false],
        ] as const
      ).map(([event, away]) =>
        onSocketEvent(event, (payload: unknown) => {
          const p = parseOrLog(partnerPresenceSchema, event, payload);
          if (!p || p.roomId !== getState().chat.roomId) return;
          dispatch(chatActions.setPartnerAway(away));
          if (!away && !getState().chat.reconnecting) dispatch(resendUnsent(notify, { unconfirmed: true }));
        }),
      ),
      onSocketEvent(chatEvents.error, (payload: unknown) => {
        const e = parseOrLog(socketErrorSchema, chatEvents.error, payload) as SocketError | null;
        if (!e) return;
        // A refused start or requeue leaves nothing pending; the refusal of an older search changes nothing.
        if ((e.event === chatEvents.start || e.event === chatEvents.next) && search.owns(e.searchId)) {
          search.end();
          dispatch(chatActions.searchStopped());
        }
        notify({ title: titleFor(e), description: e.message });
      }),
      subscribeSocketStatus(() => {
        const status = getSocketStatus();
        const { isSearching, roomId, reconnecting } = getState().chat;
        if (status === 'connected') {
          // The server held our chat while we were away: take it back. It forgets a queue entry
          // with the connection: search again.
          if (!wasConnected && reconnecting && roomId) dispatch(resumeChat(roomId, notify));
          else if (!wasConnected && isSearching) dispatch(startSearch(notify, { keepConversation: true, resumeSearch: true }));
          wasConnected = true;
        } else if (wasConnected && status !== 'connecting') {
          wasConnected = false;
          // socket.io retries by itself ('reconnecting'); any other state is for good.
          dispatch(status === 'reconnecting' ? chatActions.connectionDropped() : chatActions.connectionLost());
        } else if (reconnecting && status !== 'reconnecting' && status !== 'connecting') {
          // Retries exhausted (or signed out) while the chat was held: it is over, and should the
          // socket come back after all, the server is told so at once.
          if (roomId) endHeldChatWhenBack(roomId);
          dispatch(chatActions.connectionLost());
        }
      }),
    ];
    return () => offs.forEach((off) => off());
  };
}

function titleFor(e: SocketError): string {
  if (e.code === 'rate_limited') return 'Slow down';
  if (e.event === chatEvents.start) return 'Could not start searching';
  if (e.event === chatEvents.message) return 'Message not sent';
  return 'Chat error';
}

/** Asks the server for the chat it held while our connection was down; it has ended when refused. */
function resumeChat(roomId: string, notify: Notify): ChatThunk {
  return (dispatch, getState) =>
    takeBackHeldRoom(roomId, {
      stillWaiting: () => getState().chat.roomId === roomId && getState().chat.reconnecting,
      resumed: (partnerAway) => {
        dispatch(chatActions.resumed({ partnerAway }));
        // A switch changed while offline could not be sent then.
        emitSocket(chatEvents.settings, { automaticReconnect: getState().chat.automaticReconnect });
        if (!partnerAway) dispatch(resendUnsent(notify, { unconfirmed: true }));
      },
      partnerLeft: () => {
        // The stranger left while we were away: as if we had seen them go.
        dispatch(chatActions.resumed({ partnerAway: false }));
        dispatch(chatActions.peerLeft());
        if (getState().chat.automaticReconnect) dispatch(startSearch(notify, { keepConversation: true }));
      },
      ended: () => dispatch(chatActions.connectionLost()),
    });
}

/** Start (or restart) searching with the saved filters. */
/**
 * Start searching. `resumeSearch`: the search under way, sent again after a reconnection (the
 * server forgot it with the old connection), under its own id: should it have been matched while
 * we were away, the server gives us that room.
 */
export function startSearch(notify: Notify, opts: { keepConversation?: boolean; resumeSearch?: boolean } = {}): ChatThunk {
  return (dispatch, getState) => {
    const { chatFilters, automaticReconnect } = getState().chat;
    const filters = chatFiltersSchema.safeParse(chatFilters);
    if (!filters.success) {
      notify({ title: 'Check your filters', description: filters.error.issues[0]?.message ?? 'The filters are not valid.' });
      return;
    }
    const searchId = (opts.resumeSearch ? search.current() : null) ?? newSearchId();
    if (!emitSocket(chatEvents.start, { roomType: ROOM_TYPE, filters: filters.data, automaticReconnect, searchId })) {
      notify(offline());
      return;
    }
    search.begin(searchId);
    if (opts.keepConversation) dispatch(chatActions.setIsSearching(true));
    else dispatch(chatActions.searchStarted());
  };
}

export function stopSearch(): ChatThunk {
  return (dispatch, getState) => {
    search.end();
    stopOnServer(getState().chat);
    dispatch(chatActions.searchStopped());
  };
}

/** The automatic-reconnect switch: saved, and applied to the search or chat under way. */
export function changeAutomaticReconnect(automaticReconnect: boolean): ChatThunk {
  return (dispatch) => {
    dispatch(chatActions.setAutomaticReconnect(automaticReconnect));
    emitSocket(chatEvents.settings, { automaticReconnect });
  };
}

/** Skip: end this chat (the partner sees that the stranger disconnected) and look for the next one. */
export function nextChat(notify: Notify): ChatThunk {
  return (dispatch, getState) => {
    // Out of a room (the partner already left) Next is simply a new search with the current filters.
    if (!getState().chat.roomId) return dispatch(startSearch(notify));
    // In a room the server ends it and searches again with the same filters.
    const searchId = newSearchId();
    if (!emitSocket(chatEvents.next, { searchId })) return notify(offline());
    search.begin(searchId);
    dispatch(chatActions.searchStarted());
  };
}

/** Leaving the page: stop searching and end any chat so the partner is not left waiting. */
export function leaveTextChat(): ChatThunk {
  return (dispatch, getState) => {
    const { roomId, isSearching, reconnecting } = getState().chat;
    search.end();
    if (roomId || isSearching) stopOnServer({ roomId, reconnecting });
    // The user left the chat (the partner is told so); coming back starts from a clean page.
    if (roomId) dispatch(chatActions.conversationLeft());
    else dispatch(chatActions.searchStopped());
  };
}

export function sendTyping(typing: boolean): ChatThunk {
  return (_dispatch, getState) => {
    if (getState().chat.roomId) emitSocket(chatEvents.typing, { typing });
  };
}

/** Where the text chat keeps its own messages. */
const messageTrack = (dispatch: (a: UnknownAction) => unknown, getState: () => ChatRootState): MessageTrack => ({
  inRoom: () => Boolean(getState().chat.roomId),
  messages: () => getState().chat.messageState,
  add: (message) => dispatch(chatActions.addMessage(message)),
  setStatus: (change) => dispatch(chatActions.setMessageStatus(change)),
  waiting: () => getState().chat.reconnecting || getState().chat.partnerAway,
});

/** Sends a message; its status goes sending → sent → delivered (or failed). Resolves to whether it was accepted. */
export function sendMessage(text: string, notify: Notify): ChatThunk<Promise<boolean>> {
  return (dispatch, getState) => sendRoomMessage(text, notify, messageTrack(dispatch, getState));
}

/** Sends again what waits for both sides to be back (lib/messaging.ts, resendWaiting). */
function resendUnsent(notify: Notify, opts: { unconfirmed: boolean }): ChatThunk {
  return (dispatch, getState) => resendWaiting(messageTrack(dispatch, getState), opts, notify);
}

/** Retry: sends a message that was not sent again, under the same id (never shown twice to the stranger). */
export function retryMessage(id: string, notify: Notify): ChatThunk<Promise<boolean>> {
  return (dispatch, getState) => retryRoomMessage(id, notify, messageTrack(dispatch, getState));
}
