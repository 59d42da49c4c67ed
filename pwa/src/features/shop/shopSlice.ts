import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { StoreItem } from '@parley/contract/shop';

export type StoreState = { listOfStoreItems: StoreItem[]; searchResults: StoreItem[] };

const initialState: StoreState = { listOfStoreItems: [], searchResults: [] };

// The shop's state keeps the product specification's name, `store`, under which the app mounts it.
const shopSlice = createSlice({
  name: 'store',
  initialState,
  reducers: {
    setStoreItems(state, action: PayloadAction<StoreItem[]>) {
      state.listOfStoreItems = action.payload;
    },
    setSearchResults(state, action: PayloadAction<StoreItem[]>) {
      state.searchResults = action.payload;
    },
  },
});

export const shopActions = shopSlice.actions;
export default shopSlice.reducer;
