import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_AGE, DEFAULT_PREMIUM_TIER } from '@parley/contract/constants';
import { setCredentials, userFromToken } from '../../lib/credentials';

export type ProfileState = {
  username: string;
  avatar: string;
  gender: 'male' | 'female' | 'other';
  age: number;
  description: string;
  hobbies: string[];
  premiumUser: string;
  billingCycle: string | null;
  activeSubscription: boolean;
  customEmoji: string[];
  newPassword: string;
};

const initialState: ProfileState = {
  username: '',
  avatar: '',
  gender: 'male',
  age: DEFAULT_AGE,
  description: '',
  hobbies: [],
  premiumUser: DEFAULT_PREMIUM_TIER,
  billingCycle: null,
  activeSubscription: false,
  customEmoji: [],
  newPassword: '',
};

const profileSlice = createSlice({
  name: 'profile',
  initialState,
  reducers: {
    setProfile(state, action: PayloadAction<Partial<Omit<ProfileState, 'newPassword'>>>) {
      Object.assign(state, action.payload);
    },
    /** activeSubscription is true unless cancelledSubscription is set; billingCycle is stored. */
    setSubscription(state, action: PayloadAction<{ billingCycle: string | null; cancelledSubscription?: boolean }>) {
      state.billingCycle = action.payload.billingCycle;
      state.activeSubscription = !action.payload.cancelledSubscription;
    },
    setNewPassword(state, action: PayloadAction<string>) {
      state.newPassword = action.payload;
    },
    resetProfile() {
      return initialState;
    },
  },
  extraReducers: (builder) => {
    // The saved profile follows the signed-in user in the same step as the token, so what this
    // device shows offline is already saved when a reload comes right after signing in.
    builder.addCase(setCredentials, (state, action) => {
      const user = userFromToken(action.payload.accessToken);
      if (!user) return;
      state.username = user.username;
      state.avatar = user.avatar;
      state.premiumUser = user.premiumUser;
      if (user.gender) state.gender = user.gender;
      if (user.age !== null) state.age = user.age;
    });
  },
});

export const profileActions = profileSlice.actions;
export default profileSlice.reducer;
