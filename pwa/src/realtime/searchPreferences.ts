import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ChatFilters } from '@parley/contract/matchmaking';
import { MAX_AGE, MIN_AGE } from '@parley/contract/constants';

/**
 * Who the user would like to meet, whether to search again by themselves when a partner leaves,
 * and whether the partner's video is checked for nudity on this device: one set of chat
 * preferences, saved on the device. The store loads this with the first page; the socket stays
 * out of it (changeAutomaticReconnect).
 */
export type SearchPreferences = { chatFilters: ChatFilters; automaticReconnect: boolean; nudityGuard: boolean };

export const defaultChatFilters: ChatFilters = { topics: [], gender: 'All', ageRange: { minAge: MIN_AGE, maxAge: MAX_AGE } };

const initialState: SearchPreferences = { chatFilters: defaultChatFilters, automaticReconnect: false, nudityGuard: true };

const searchPreferencesSlice = createSlice({
  name: 'searchPreferences',
  initialState,
  reducers: {
    setChatFilters(state, action: PayloadAction<ChatFilters>) {
      state.chatFilters = action.payload;
    },
    resetChatFilters(state) {
      state.chatFilters = defaultChatFilters;
    },
    setAutomaticReconnect(state, action: PayloadAction<boolean>) {
      state.automaticReconnect = action.payload;
    },
    setNudityGuard(state, action: PayloadAction<boolean>) {
      state.nudityGuard = action.payload;
    },
  },
});

export const searchPreferencesActions = searchPreferencesSlice.actions;
export default searchPreferencesSlice.reducer;

export type WithSearchPreferences = { searchPreferences: SearchPreferences };
