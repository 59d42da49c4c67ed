import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { BACKGROUND_VIDEO_FILTERS } from '@parley/contract/constants';
import type { Receiver } from '@parley/contract/chat';
import {
  giveUpWaiting,
  messageAdded,
  messageStatusChanged,
  partnerAwayChanged,
  roomDropped,
  roomResumed,
  type ConversationMessage,
  type MessageStatusChange,
} from '../../lib/conversation';

export type BackgroundVideoFilter = (typeof BACKGROUND_VIDEO_FILTERS)[number];

/** Where the video chat is: nothing yet, looking for someone, setting up the call, talking, or over. */
export type VideoPhase = 'idle' | 'searching' | 'connecting' | 'inCall' | 'ended';

export type VideoMessage = ConversationMessage;

export type VideoChatState = {
  // The spec's fields (section 3); the first three are persisted.
  deviceId: string;
  deviceAudioId: string;
  backgroundVideoFilter: BackgroundVideoFilter;
  previewVideoIsLoaded: boolean;
  // The current room, as the matchmaker set it up.
  phase: VideoPhase;
  roomId: string | null;
  receiver: Receiver | null;
  initiator: boolean;
  noCommonTopic: boolean;
  isRequeuing: boolean;
  isPeerDisconnected: boolean;
  userIsDisconnected: boolean;
  partnerTyping: boolean;
  messages: VideoMessage[];
  /** Why the video part failed while the room (and its text chat) may still be open. */
  callProblem: string | null;
  /** The failed call is to be placed again (`video:redial`) as soon as both sides are connected. */
  callRedialing: boolean;
  /** The attempt of the room's call under way (0 first; `video:redial` gives the next). */
  callAttempt: number;
  /** Our socket dropped in a room: the server holds it (and the call goes on) while it reconnects. */
  reconnecting: boolean;
  /** The partner's socket dropped: the server holds the room for them to come back. */
  partnerAway: boolean;
};

const initialState: VideoChatState = {
  deviceId: '',
  deviceAudioId: '',
  backgroundVideoFilter: 'none',
  previewVideoIsLoaded: false,
  phase: 'idle',
  roomId: null,
  receiver: null,
  initiator: false,
  noCommonTopic: false,
  isRequeuing: false,
  isPeerDisconnected: false,
  userIsDisconnected: false,
  partnerTyping: false,
  messages: [],
  callProblem: null,
  callRedialing: false,
  callAttempt: 0,
  reconnecting: false,
  partnerAway: false,
};

const MAX_MESSAGES = 500;

/** In a room that is still on (the call being set up or under way), whatever its call's state. */
export const inVideoRoom = ({ phase }: Pick<VideoChatState, 'phase'>) => phase === 'connecting' || phase === 'inCall';

function loseConnection(state: VideoChatState) {
  state.reconnecting = false;
  state.partnerAway = false;
  giveUpWaiting(state.messages);
  if (state.phase === 'idle' || state.phase === 'ended') return;
  state.phase = 'ended';
  state.userIsDisconnected = true;
  state.isRequeuing = false;
  state.partnerTyping = false;
}

const videoChatSlice = createSlice({
  name: 'videoChat',
  initialState,
  reducers: {
    setDeviceId(state, action: PayloadAction<string>) {
      state.deviceId = action.payload;
    },
    setDeviceAudioId(state, action: PayloadAction<string>) {
      state.deviceAudioId = action.payload;
    },
    setBackgroundVideoFilter(state, action: PayloadAction<BackgroundVideoFilter>) {
      state.backgroundVideoFilter = action.payload;
    },
    setPreviewVideoIsLoaded(state, action: PayloadAction<boolean>) {
      state.previewVideoIsLoaded = action.payload;
    },
    searchStarted(state, action: PayloadAction<{ requeued?: boolean } | undefined>) {
      state.phase = 'searching';
      state.isRequeuing = action.payload?.requeued ?? false;
      state.roomId = null;
      state.receiver = null;
      state.messages = [];
      state.partnerTyping = false;
      state.callProblem = null;
      state.callRedialing = false;
      state.isPeerDisconnected = false;
      state.userIsDisconnected = false;
      state.reconnecting = false;
      state.partnerAway = false;
    },
    searchStopped(state) {
      if (state.phase === 'searching') state.phase = 'idle';
      state.isRequeuing = false;
    },
    /** Room setup: the partner is known; the disconnected and requeuing flags reset (spec 4). */
    roomSetup(
      state,
      action: PayloadAction<{ roomId: string; receiver: Receiver; initiator: boolean; noCommonTopic: boolean; callAttempt?: number }>,
    ) {
      const { roomId, receiver, initiator, noCommonTopic, callAttempt = 0 } = action.payload;
      Object.assign(state, {
        phase: 'connecting',
        roomId,
        receiver,
        initiator,
        noCommonTopic,
        messages: [],
        partnerTyping: false,
        callProblem: null,
        callRedialing: false,
        callAttempt,
        reconnecting: false,
        partnerAway: false,
      });
      state.isPeerDisconnected = false;
      state.userIsDisconnected = false;
      state.isRequeuing = false;
    },
    callConnected(state, action: PayloadAction<string>) {
      if (state.roomId === action.payload && state.phase === 'connecting') state.phase = 'inCall';
    },
    /**
     * Attempt `attempt` of the media call of `roomId` failed; the room's text chat may still work.
     * `redial`: placing it again may help (a lost connection, not a missing camera); the server
     * says whether attempts are left. A failure of an attempt already replaced is old news.
     */
    callFailed(state, action: PayloadAction<{ roomId: string; attempt: number; problem: string; redial: boolean }>) {
      const { roomId, attempt, problem, redial } = action.payload;
      if (state.roomId !== roomId || state.callAttempt !== attempt) return;
      state.callProblem = problem;
      state.callRedialing = redial;
    },
    /** The call is not placed again (refused, or its attempts are used up): the problem stands. */
    redialRefused(state, action: PayloadAction<{ roomId: string; problem: string }>) {
      if (state.roomId !== action.payload.roomId) return;
      state.callRedialing = false;
      state.callProblem ??= action.payload.problem;
    },
    /** `video:redial`: the room's call is placed again under a new attempt's peer ids. */
    callRedialed(state, action: PayloadAction<{ roomId: string; attempt: number }>) {
      const { roomId, attempt } = action.payload;
      if (state.roomId !== roomId || attempt <= state.callAttempt || !inVideoRoom(state)) return;
      state.callAttempt = attempt;
      state.callProblem = null;
      state.callRedialing = false;
      state.phase = 'connecting';
    },
    /** The partner pressed Next, left or lost their connection. */
    peerLeft(state) {
      if (!state.roomId) return;
      state.phase = 'ended';
      state.isPeerDisconnected = true;
      state.partnerTyping = false;
      state.partnerAway = false;
      giveUpWaiting(state.messages);
    },
    /** We lost our connection for good: the room is gone for us. */
    connectionLost: loseConnection,
    /**
     * Our socket dropped and socket.io is reconnecting: a room is held by the server meanwhile,
     * and a search is sent again once back (a room matched meanwhile comes back with it).
     */
    connectionDropped(state) {
      if (state.phase === 'searching') return;
      if (!inVideoRoom(state)) return loseConnection(state);
      roomDropped(state, state.messages);
    },
    /** Back on a new connection, the server gave us our room again. */
    resumed(state, action: PayloadAction<{ partnerAway: boolean }>) {
      roomResumed(state, action.payload.partnerAway);
    },
    setPartnerAway(state, action: PayloadAction<boolean>) {
      partnerAwayChanged(state, action.payload);
    },
    /** Stop or leave: back to the preview. */
    left(state) {
      state.phase = 'idle';
      state.roomId = null;
      state.reconnecting = false;
      state.partnerAway = false;
      giveUpWaiting(state.messages);
      state.isRequeuing = false;
      state.partnerTyping = false;
      state.callProblem = null;
      state.callRedialing = false;
    },
    /** Once only: a message the conversation already shows (the sender may resend one) is not added again. */
    addMessage(state, action: PayloadAction<VideoMessage>) {
      if (messageAdded(state, state.messages, action.payload) && state.messages.length > MAX_MESSAGES)
        state.messages.splice(0, state.messages.length - MAX_MESSAGES);
    },
    setMessageStatus(state, action: PayloadAction<MessageStatusChange>) {
      messageStatusChanged(state.messages, action.payload);
    },
    setPartnerTyping(state, action: PayloadAction<boolean>) {
      state.partnerTyping = action.payload;
    },
  },
});

export const videoChatActions = videoChatSlice.actions;
export default videoChatSlice.reducer;
