import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { CONSECUTIVE_DAYS_START, DEFAULT_LEVEL } from '@parley/contract/constants';

export type MissionState = {
  level: number;
  XP: number;
  nextLevel: number | null;
  gold: number;
  consecutiveDays: number;
  parsedDates: string[];
};

const initialState: MissionState = {
  level: DEFAULT_LEVEL,
  XP: 0,
  nextLevel: null,
  gold: 0,
  consecutiveDays: CONSECUTIVE_DAYS_START,
  parsedDates: [],
};

const missionSlice = createSlice({
  name: 'mission',
  initialState,
  reducers: {
    setMissionProgress(state, action: PayloadAction<Partial<MissionState>>) {
      Object.assign(state, action.payload);
    },
  },
});

export const missionActions = missionSlice.actions;
export default missionSlice.reducer;
