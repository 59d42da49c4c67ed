import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type GroupChatState = { roomId: string | null; roomOwner: string | null; roomCategory: string | null; peopleInRoom: string[] };

const initialState: GroupChatState = { roomId: null, roomOwner: null, roomCategory: null, peopleInRoom: [] };

const groupChatSlice = createSlice({
  name: 'groupChat',
  initialState,
  reducers: {
    setRoom(state, action: PayloadAction<{ roomId: string; roomOwner: string; roomCategory: string }>) {
      Object.assign(state, action.payload);
    },
    setPeopleInRoom(state, action: PayloadAction<string[]>) {
      state.peopleInRoom = action.payload;
    },
    leaveRoom() {
      return initialState;
    },
  },
});

export const groupChatActions = groupChatSlice.actions;
export default groupChatSlice.reducer;
