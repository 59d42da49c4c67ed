import { createSlice, type PayloadAction, type ThunkAction, type UnknownAction } from '@reduxjs/toolkit';
import { chatEvents, type ChatFilters } from '@parley/contract/chat';
import { MAX_AGE, MIN_AGE } from '@parley/contract/constants';
import { emitSocket } from './socket';

/**
 * Who the user would like to meet and whether to search again by themselves when a partner
 * leaves: one set of preferences that every room kind's search reads, saved on the device.
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

/** The automatic-reconnect switch: saved, and applied to the search or room under way. */
export function changeAutomaticReconnect(automaticReconnect: boolean): ThunkAction<void, WithSearchPreferences, unknown, UnknownAction> {
  return (dispatch) => {
    dispatch(searchPreferencesActions.setAutomaticReconnect(automaticReconnect));
    emitSocket(chatEvents.settings, { automaticReconnect });
  };
}
