import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Receiver, RoomType } from '@parley/contract/matchmaking';
import { createRoomReducers, initialRoomState, type RoomSetupPayload, type RoomState } from '../../realtime/roomState';

export type ChatState = RoomState & {
  encounteredUser: Receiver[];
  mostPopularTopics: string[];
  roomType: RoomType;
  emojiPickerOpen: boolean;
  emojiPickerContent: string;
};

const initialState: ChatState = {
  ...initialRoomState,
  encounteredUser: [],
  mostPopularTopics: [],
  roomType: 'textChat',
  emojiPickerOpen: false,
  emojiPickerContent: '',
};

// A text room is on as soon as it is set up; after the partner left, the conversation stays
// readable while the server searches again.
const room = createRoomReducers<ChatState>({ enteredPhase: 'inRoom', keepsEndedConversation: true });

const chatSlice = createSlice({
  name: 'chat',
  initialState,
  reducers: {
    ...room,
    /** Room setup: the partner is known, and remembered among the people met. */
    roomSetup(state, action: PayloadAction<RoomSetupPayload>) {
      room.roomSetup(state, action);
      const seen = state.encounteredUser.filter((u) => u.userId !== action.payload.receiver.userId);
      state.encounteredUser = [action.payload.receiver, ...seen].slice(0, 50);
    },
    setRoomType(state, action: PayloadAction<RoomType>) {
      state.roomType = action.payload;
    },
    setMostPopularTopics(state, action: PayloadAction<string[]>) {
      state.mostPopularTopics = action.payload;
    },
    setEmojiPickerOpen(state, action: PayloadAction<boolean>) {
      state.emojiPickerOpen = action.payload;
    },
    setEmojiPickerContent(state, action: PayloadAction<string>) {
      state.emojiPickerContent = action.payload;
    },
    // Reset actions restore the receiver and the emoji picker (the filters': searchPreferences).
    resetReceiver(state) {
      state.receiver = null;
      state.roomId = null;
      state.noCommonTopic = false;
      if (state.phase !== 'searching') state.phase = 'idle';
    },
    resetEmojiPicker(state) {
      state.emojiPickerOpen = false;
      state.emojiPickerContent = '';
    },
  },
});

export const chatActions = chatSlice.actions;
export default chatSlice.reducer;
