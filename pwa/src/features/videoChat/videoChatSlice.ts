import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { BACKGROUND_VIDEO_FILTERS } from '@parley/contract/constants';
import {
  createRoomReducers,
  initialRoomState,
  inRoom,
  type RoomPhase,
  type RoomSetupPayload,
  type RoomState,
} from '../../realtime/roomState';

export type BackgroundVideoFilter = (typeof BACKGROUND_VIDEO_FILTERS)[number];

/** Where the video chat is: nothing yet, looking for someone, setting up the call, talking, or over. */
export type VideoPhase = RoomPhase;

export type VideoChatState = RoomState & {
  // The spec's fields; the first three are persisted.
  deviceId: string;
  deviceAudioId: string;
  backgroundVideoFilter: BackgroundVideoFilter;
  previewVideoIsLoaded: boolean;
  /** This side places the call. */
  initiator: boolean;
  /** Why the video part failed while the room (and its text chat) may still be open. */
  callProblem: string | null;
  /** The failed call is to be placed again (`video:redial`) as soon as both sides are connected. */
  callRedialing: boolean;
  /** The attempt of the room's call under way (0 first; `video:redial` gives the next). */
  callAttempt: number;
  /** This user pressed Next (or started again after a chat): the search under way is theirs, not the partner's leaving. */
  movedOn: boolean;
};

const initialState: VideoChatState = {
  ...initialRoomState,
  deviceId: '',
  deviceAudioId: '',
  backgroundVideoFilter: 'none',
  previewVideoIsLoaded: false,
  initiator: false,
  callProblem: null,
  callRedialing: false,
  callAttempt: 0,
  movedOn: false,
};

// A video room is `connecting` until its call is up; a new search clears the ended conversation,
// and a long call keeps its latest messages only.
const room = createRoomReducers<VideoChatState>({ enteredPhase: 'connecting', keepsEndedConversation: false });

function clearCall(state: VideoChatState) {
  state.callProblem = null;
  state.callRedialing = false;
}

const videoChatSlice = createSlice({
  name: 'videoChat',
  initialState,
  reducers: {
    ...room,
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
      // A new search with a partner still on screen (in the room, or after it ended) is this user moving on.
      state.movedOn = state.receiver !== null;
      room.searchStarted(state, action);
      clearCall(state);
    },
    searching(state, action: PayloadAction<{ requeued: boolean }>) {
      room.searching(state, action);
      clearCall(state);
    },
    /** Room setup: the partner is known, and who places the call under which attempt. */
    roomSetup(state, action: PayloadAction<RoomSetupPayload & { initiator: boolean; callAttempt?: number }>) {
      room.roomSetup(state, action);
      state.movedOn = false;
      state.initiator = action.payload.initiator;
      state.callAttempt = action.payload.callAttempt ?? 0;
      clearCall(state);
    },
    left(state) {
      room.left(state);
      state.movedOn = false;
      clearCall(state);
    },
    callConnected(state, action: PayloadAction<string>) {
      if (state.roomId === action.payload && state.phase === 'connecting') state.phase = 'inRoom';
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
      if (state.roomId !== roomId || attempt <= state.callAttempt || !inRoom(state)) return;
      state.callAttempt = attempt;
      clearCall(state);
      state.phase = 'connecting';
    },
  },
});

export const videoChatActions = videoChatSlice.actions;
export default videoChatSlice.reducer;
