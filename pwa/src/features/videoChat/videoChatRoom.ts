import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { callRedialSchema, rtcEvents } from '@parley/contract/videoChat';
import { createRoomConnection, type RoomConnection } from '../../realtime/roomConnection';
import { inRoom } from '../../realtime/roomState';
import type { WithSearchPreferences } from '../../realtime/searchPreferences';
import { checkPayload, emitSocket, onSocketEvent } from '../../realtime/socket';
import { markRoomSetup } from './marks';
import { videoChatActions, type VideoChatState } from './videoChatSlice';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * The video chat as a room kind: rooms of type `videoChat`, kept in the `videoChat` slice, whose
 * call (peer to peer, useVideoCall) is placed again when it fails. The room's connection, drops
 * and resume are the room connection's.
 */
export type VideoChatRoot = WithSearchPreferences & { videoChat: VideoChatState };
type VideoThunk<R = void> = ThunkAction<R, VideoChatRoot, unknown, UnknownAction>;

/**
 * How long a page waits before asking to place its failed call again, by the attempt that failed:
 * a signalling server that cannot be reached for a moment must not use up every attempt at once.
 */
export const REDIAL_DELAYS_MS = [1000, 3000, 3000] as const;

export type VideoChatRoom = RoomConnection<VideoChatRoot> & {
  /**
   * Attempt `attempt` of the room's call failed (`redial`: placing it again may help): asks for it
   * to be placed again shortly, or once both sides are connected again.
   */
  callFailed(failure: { roomId: string; attempt: number; problem: string; redial: boolean }): VideoThunk;
};

export function createVideoChatRoom(): VideoChatRoom {
  let redialPending: { key: string; timer: ReturnType<typeof setTimeout> } | null = null;

  /**
   * Asks the server to place the failed call again (`video:redial`, naming the attempt that failed)
   * after REDIAL_DELAYS_MS, if it is still to be and both sides are connected then; otherwise the
   * resume or the partner's return asks. Both sides may ask: the server places an attempt once.
   */
  function redialFailedCall(getState: () => VideoChatRoot) {
    const ready = () => {
      const vc = getState().videoChat;
      return vc.callRedialing && !vc.reconnecting && !vc.partnerAway && inRoom(vc);
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
  }

  const connection = createRoomConnection<VideoChatRoot>({
    type: 'videoChat',
    area: 'video',
    room: (state) => state.videoChat,
    actions: videoChatActions,
    keepsEndedConversation: false,
    // Read when an error is shown, in the interface language of that moment.
    errorTitles: {
      get other() {
        return i18n._(msg`Video chat`);
      },
    },
    hooks: {
      // `video:redial` from the server: the call is placed again under the next attempt.
      attach: (dispatch, getState) => [
        onSocketEvent(rtcEvents.redial, (payload: unknown) => {
          const r = checkPayload('video', callRedialSchema, rtcEvents.redial, payload);
          if (r && inRoom(getState().videoChat)) dispatch(videoChatActions.callRedialed(r));
        }),
      ],
      matched: (setup) => markRoomSetup(setup.roomId),
      // The call was placed again while this page was away (its video:redial may have been lost).
      resumed: (roomId, outcome, dispatch) => {
        if (outcome.callAttempt !== undefined) dispatch(videoChatActions.callRedialed({ roomId, attempt: outcome.callAttempt }));
      },
      bothBack: (_dispatch, getState) => redialFailedCall(getState),
      error: (e, dispatch, getState) => {
        const { phase, roomId } = getState().videoChat;
        if (phase === 'idle') return true; // not ours: the video page is not doing anything
        if (e.event !== rtcEvents.redial) return false;
        // Shown with the call, not as a toast; with the partner away the ask is made again once they are back.
        if (e.code !== 'partner_away' && roomId) dispatch(videoChatActions.redialRefused({ roomId, problem: e.message }));
        return true;
      },
      dispose: () => {
        if (redialPending) clearTimeout(redialPending.timer);
        redialPending = null;
      },
    },
  });

  return {
    ...connection,
    callFailed: (failure) => (dispatch, getState) => {
      dispatch(videoChatActions.callFailed(failure));
      redialFailedCall(getState);
    },
  };
}

/** The page's video chat; it outlives the page, so that a room left while offline still ends once back. */
export const videoChatRoom = createVideoChatRoom();
