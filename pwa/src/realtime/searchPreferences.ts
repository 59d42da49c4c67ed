import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ChatFilters } from '@parley/contract/chat';
import { MAX_AGE, MIN_AGE } from '@parley/contract/constants';

/**
 * Who the user would like to meet and whether to search again by themselves when a partner
 * leaves: one set of preferences that every room kind's search reads, saved on the device. The
 * store loads this with the first page; the socket stays out of it (changeAutomaticReconnect).
 */
export type SearchPreferences = { chatFilters: ChatFilters; automaticReconnect: boolean };

export const defaultChatFilters: ChatFilters = { topics: [], gender: 'All', ageRange: { minAge: MIN_AGE, maxAge: MAX_AGE } };

const initialState: SearchPreferences = { chatFilters: defaultChatFilters, automaticReconnect: false };

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
  },
});

export const searchPreferencesActions = searchPreferencesSlice.actions;
export default searchPreferencesSlice.reducer;

export type WithSearchPreferences = { searchPreferences: SearchPreferences };
