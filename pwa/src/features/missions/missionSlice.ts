import { createSlice, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';
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

const isPurchaseAnswer = (a: UnknownAction): a is PayloadAction<{ gold: number }> =>
  a.type === 'api/executeMutation/fulfilled' && (a as { meta?: { arg?: { endpointName?: string } } }).meta?.arg?.endpointName === 'buyItem';

const missionSlice = createSlice({
  name: 'mission',
  initialState,
  reducers: {
    setMissionProgress(state, action: PayloadAction<Partial<MissionState>>) {
      Object.assign(state, action.payload);
    },
  },
  // The gold a purchase answered with (the missions query's answer fills the rest).
  extraReducers: (builder) => {
    builder.addMatcher(isPurchaseAnswer, (state, { payload }) => {
      state.gold = payload.gold;
    });
  },
});

export const missionActions = missionSlice.actions;
export default missionSlice.reducer;
