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
  type ChatFilters,
} from '@parley/contract/chat';
import { rtcEvents, callRedialSchema } from '@parley/contract/rtc';
import {
  checkPayload,
  emitSocket,
  getSocketStatus,
  offlineNotice as offline,
  onSocketEvent,
  subscribeSocketStatus,
  type SocketNotice,
} from '../../realtime/socket';
import { resendWaiting, retryRoomMessage, sendRoomMessage, type MessageTrack } from '../../lib/messaging';
import { endHeldChatWhenBack, stopOnServer, takeBackHeldRoom } from '../../lib/resume';
import { createSearchTicket, newSearchId } from '../../lib/searchTicket';
import { inVideoRoom, videoChatActions, type VideoChatState } from './videoChatSlice';
import { markRoomSetup } from './marks';

/**
 * The video chat's side of the shared realtime connection: the same matchmaking and text events
 * as the text chat (chatEvents in the contract), for rooms of type `videoChat`. Server payloads are
 * checked before they reach the state.
 */

type VideoRootState = { videoChat: VideoChatState; chat: { chatFilters: ChatFilters; automaticReconnect: boolean } };
type VideoThunk<R = void> = ThunkAction<R, VideoRootState, unknown, UnknownAction>;
export type Notice = SocketNotice;
type Notify = (n: Notice) => void;

const ROOM_TYPE = 'videoChat';

/** The video search under way (see the text chat's): answers to an older search are ignored. */
const search = createSearchTicket();

const parsed = <T>(schema: z.ZodType<T>, event: string, payload: unknown) => checkPayload('video', schema, event, payload);

/** Subscribes the video chat to the socket while the page is open; returns the unsubscribe. */
export function attachVideoChatSocket(notify: Notify): VideoThunk<() => void> {
  return (dispatch, getState) => {
    const inRoom = () => inVideoRoom(getState().videoChat);
    let wasConnected = getSocketStatus() === 'connected';
    const offs = [
      onSocketEvent(chatEvents.searching, (payload: unknown) => {
        const p = parsed(searchingSchema, chatEvents.searching, payload);
        // Idle: the user stopped; a searching state or match that crossed the Stop is not theirs any more.
        if (p?.roomType === ROOM_TYPE && getState().videoChat.phase !== 'idle' && search.owns(p.searchId))
          dispatch(videoChatActions.searchStarted({ requeued: p.requeued }));
      }),
      onSocketEvent(chatEvents.matched, (payload: unknown) => {
        const p = parsed(roomSetupSchema, chatEvents.matched, payload);
        if (p?.roomType !== ROOM_TYPE || getState().videoChat.phase === 'idle' || !search.owns(p.searchId)) return;
        markRoomSetup(p.roomId);
        dispatch(videoChatActions.roomSetup(p));
      }),
      onSocketEvent(chatEvents.message, (payload: unknown, ack?: (a: unknown) => void) => {
        const m = parsed(chatMessageSchema, chatEvents.message, payload);
        if (!m || !inRoom()) return;
        // A resend of a message that had arrived after all is acknowledged again, not shown twice.
        dispatch(videoChatActions.addMessage({ ...m, from: 'stranger', status: 'delivered' }));
        if (typeof ack === 'function') ack({ ok: true, id: m.id });
      }),
      onSocketEvent(chatEvents.typing, (payload: unknown) => {
        const t = parsed(typingSchema, chatEvents.typing, payload);
        if (t && inRoom()) dispatch(videoChatActions.setPartnerTyping(t.typing));
      }),
      onSocketEvent(chatEvents.partnerLeft, (payload: unknown) => {
        const p = parsed(partnerLeftSchema, chatEvents.partnerLeft, payload);
        if (p && p.roomId === getState().videoChat.roomId) dispatch(videoChatActions.peerLeft());
      }),
      ...(
        [
          [chatEvents.partnerAway, true],
          [chatEvents.partnerBack, false],
        ] as const
      ).map(([event, away]) =>
        onSocketEvent(event, (payload: unknown) => {
          const p = parsed(partnerPresenceSchema, event, payload);
          if (!p || p.roomId !== getState().videoChat.roomId || !inRoom()) return;
          dispatch(videoChatActions.setPartnerAway(away));
          if (!away && !getState().videoChat.reconnecting) {
            dispatch(resendWaitingVideo(notify, { unconfirmed: true }));
            dispatch(redialFailedCall());
          }
        }),
      ),
      onSocketEvent(rtcEvents.redial, (payload: unknown) => {
        const r = parsed(callRedialSchema, rtcEvents.redial, payload);
        if (r && inRoom()) dispatch(videoChatActions.callRedialed(r));
      }),
      onSocketEvent(chatEvents.error, (payload: unknown) => {
        const e = parsed(socketErrorSchema, chatEvents.error, payload);
        if (!e) return;
        const { phase, roomId } = getState().videoChat;
        if (phase === 'idle') return; // not ours: the video page is not doing anything
        if (e.event === rtcEvents.redial) {
          // Shown with the call, not as a toast; with the partner away the ask is made again once they are back.
          if (e.code !== 'partner_away' && roomId) dispatch(videoChatActions.redialRefused({ roomId, problem: e.message }));
          return;
        }
        if ((e.event === chatEvents.start || e.event === chatEvents.next) && search.owns(e.searchId)) {
          search.end();
          dispatch(videoChatActions.searchStopped());
        }
        notify({
          title: e.code === 'rate_limited' ? 'Slow down' : e.event === chatEvents.message ? 'Message not sent' : 'Video chat',
          description: e.message,
        });
      }),
      subscribeSocketStatus(() => {
        const status = getSocketStatus();
        const { phase, roomId, reconnecting } = getState().videoChat;
        if (status === 'connected') {
          // The server held our room while we were away (the call, peer to peer, may have gone
          // on): take it back. It forgets a queue entry with the connection: search again.
          if (!wasConnected && reconnecting && roomId) dispatch(resumeVideoChat(roomId, notify));
          // Under the same search id: a room matched while the connection was down comes back with it.
          else if (!wasConnected && phase === 'searching') dispatch(startVideoSearch(notify, { resumeSearch: true }));
          wasConnected = true;
        } else if (wasConnected && status !== 'connecting') {
          wasConnected = false;
          // socket.io retries by itself ('reconnecting'); any other state is for good.
          dispatch(status === 'reconnecting' ? videoChatActions.connectionDropped() : videoChatActions.connectionLost());
        } else if (reconnecting && status !== 'reconnecting' && status !== 'connecting') {
          // Retries exhausted (or signed out) while the room was held: it is over, and should the
          // socket come back after all, the server is told so at once.
          if (roomId) endHeldChatWhenBack(roomId);
          dispatch(videoChatActions.connectionLost());
        }
      }),
    ];
    return () => offs.forEach((off) => off());
  };
}

/** Asks the server for the room it held while our connection was down; it has ended when refused. */
function resumeVideoChat(roomId: string, notify: Notify): VideoThunk {
  return (dispatch, getState) =>
    takeBackHeldRoom(roomId, {
      stillWaiting: () => getState().videoChat.roomId === roomId && getState().videoChat.reconnecting,
      resumed: (partnerAway, callAttempt) => {
        dispatch(videoChatActions.resumed({ partnerAway }));
        // The call was placed again while this page was away (its video:redial may have been lost).
        if (callAttempt !== undefined) dispatch(videoChatActions.callRedialed({ roomId, attempt: callAttempt }));
        // A switch changed while offline could not be sent then.
        emitSocket(chatEvents.settings, { automaticReconnect: getState().chat.automaticReconnect });
        if (!partnerAway) {
          dispatch(resendWaitingVideo(notify, { unconfirmed: true }));
          dispatch(redialFailedCall());
        }
      },
      partnerLeft: () => {
        // The stranger left while we were away: as if we had seen them go.
        dispatch(videoChatActions.resumed({ partnerAway: false }));
        dispatch(videoChatActions.peerLeft());
        if (getState().chat.automaticReconnect) dispatch(startVideoSearch(notify));
      },
      ended: () => dispatch(videoChatActions.connectionLost()),
    });
}

/**
 * Attempt `attempt` of the room's call failed (`redial`: placing it again may help): asks for it
 * to be placed again shortly, or once both sides are connected again (see redialFailedCall).
 */
export function videoCallFailed(failure: { roomId: string; attempt: number; problem: string; redial: boolean }): VideoThunk {
  return (dispatch) => {
    dispatch(videoChatActions.callFailed(failure));
    dispatch(redialFailedCall());
  };
}

/**
 * How long a page waits before asking to place its failed call again, by the attempt that failed:
 * a signalling server that cannot be reached for a moment must not use up every attempt at once.
 */
export const REDIAL_DELAYS_MS = [1000, 3000, 3000] as const;
let redialPending: { key: string; timer: ReturnType<typeof setTimeout> } | null = null;

/**
 * Asks the server to place the failed call again (`video:redial`, naming the attempt that failed)
 * after REDIAL_DELAYS_MS, if it is still to be and both sides are connected then; otherwise the
 * resume or the partner's return asks. Both sides may ask: the server places an attempt once.
 */
function redialFailedCall(): VideoThunk {
  return (_dispatch, getState) => {
    const ready = () => {
      const vc = getState().videoChat;
      return vc.callRedialing && !vc.reconnecting && !vc.partnerAway && inVideoRoom(vc);
    };
    if (!ready()) return;
    const { roomId, callAttempt } = getState().videoChat;
    const key = `${roomId}:${callAttempt}`;
    if (redialPending?.key === key) return;
    if (redialPending) clearTimeout(redialPending.timer);
    const timer = setTimeout(
      () => {
        if (redialPending?.timer === timer) redialPending = null;
        const now = getState().videoChat;
        if (ready() && `${now.roomId}:${now.callAttempt}` === key) emitSocket(rtcEvents.redial, { roomId, attempt: callAttempt });
      },
      REDIAL_DELAYS_MS[callAttempt] ?? REDIAL_DELAYS_MS[REDIAL_DELAYS_MS.length - 1],
    );
    redialPending = { key, timer };
  };
}

/** Sends again what waits for both sides to be back (lib/messaging.ts, resendWaiting). */
function resendWaitingVideo(notify: Notify, opts: { unconfirmed: boolean }): VideoThunk {
  return (dispatch, getState) => resendWaiting(videoMessageTrack(dispatch, getState), opts, notify);
}

/**
 * Start searching for a video partner with the user's chat filters. `resumeSearch`: the search
 * under way, sent again after a reconnection under its own id (see the text chat's startSearch).
 */
export function startVideoSearch(notify: Notify, opts: { resumeSearch?: boolean } = {}): VideoThunk<boolean> {
  return (dispatch, getState) => {
    const { chatFilters, automaticReconnect } = getState().chat;
    const filters = chatFiltersSchema.safeParse(chatFilters);
    if (!filters.success) {
      notify({ title: 'Check your filters', description: filters.error.issues[0]?.message ?? 'The chat filters are not valid.' });
      return false;
    }
    const searchId = (opts.resumeSearch ? search.current() : null) ?? newSearchId();
    if (!emitSocket(chatEvents.start, { roomType: ROOM_TYPE, filters: filters.data, automaticReconnect, searchId })) {
      notify(offline());
      return false;
    }
    search.begin(searchId);
    // Sent again after a drop, a requeue stays one ("Your partner left…").
    dispatch(videoChatActions.searchStarted(opts.resumeSearch ? { requeued: getState().videoChat.isRequeuing } : undefined));
    return true;
  };
}

/** Stop searching, or end the current video chat, and go back to the preview. */
export function stopVideoChat(): VideoThunk {
  return (dispatch, getState) => {
    const { phase, roomId, reconnecting } = getState().videoChat;
    search.end();
    if (phase !== 'idle') stopOnServer({ roomId, reconnecting });
    dispatch(videoChatActions.left());
  };
}

/** Skip: end this video chat (the partner sees the stranger left) and look for the next one. */
export function nextVideoChat(notify: Notify): VideoThunk {
  return (dispatch, getState) => {
    const { roomId, phase } = getState().videoChat;
    // Out of a room (the partner already left) Next is simply a new search with the current filters.
    if (!roomId || phase === 'ended') return void dispatch(startVideoSearch(notify));
    // In a room the server ends it and requeues with the same filters; a chat:start after it could
    // end a room matched in between, leaving that partner with "Stranger has disconnected".
    const searchId = newSearchId();
    if (!emitSocket(chatEvents.next, { searchId })) return notify(offline());
    search.begin(searchId);
    dispatch(videoChatActions.searchStarted());
  };
}

export function sendVideoTyping(typing: boolean): VideoThunk {
  return (_dispatch, getState) => {
    if (getState().videoChat.roomId) emitSocket(chatEvents.typing, { typing });
  };
}

/** Where the video chat keeps its own messages. */
const videoMessageTrack = (dispatch: (a: UnknownAction) => unknown, getState: () => VideoRootState): MessageTrack => ({
  inRoom: () => inVideoRoom(getState().videoChat),
  messages: () => getState().videoChat.messages,
  add: (message) => dispatch(videoChatActions.addMessage(message)),
  setStatus: (change) => dispatch(videoChatActions.setMessageStatus(change)),
  waiting: () => getState().videoChat.reconnecting || getState().videoChat.partnerAway,
});

/** Sends a message beside the video; its status goes sending → sent → delivered (or failed). */
export function sendVideoMessage(text: string, notify: Notify): VideoThunk<Promise<boolean>> {
  return (dispatch, getState) => sendRoomMessage(text, notify, videoMessageTrack(dispatch, getState));
}

/** Retry: sends a message that was not sent again, under the same id (never shown twice to the stranger). */
export function retryVideoMessage(id: string, notify: Notify): VideoThunk<Promise<boolean>> {
  return (dispatch, getState) => retryRoomMessage(id, notify, videoMessageTrack(dispatch, getState));
}
