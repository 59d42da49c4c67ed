import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { BACKGROUND_VIDEO_FILTERS } from '@parley/contract/constants';

export type BackgroundVideoFilter = (typeof BACKGROUND_VIDEO_FILTERS)[number];

export type VideoChatState = {
  deviceId: string;
  deviceAudioId: string;
  backgroundVideoFilter: BackgroundVideoFilter;
  previewVideoIsLoaded: boolean;
};

const initialState: VideoChatState = { deviceId: '', deviceAudioId: '', backgroundVideoFilter: 'none', previewVideoIsLoaded: false };

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
  },
});

export const videoChatActions = videoChatSlice.actions;
export default videoChatSlice.reducer;
