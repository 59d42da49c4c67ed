import { createSlice, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';
import type { OwnProfile } from '@parley/contract/people';
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
  /** The chosen chat background (a shipped id or `upload:<id>`), shown behind every conversation. */
  background: string | null;
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
  background: null,
};

/** Endpoints (app/api, by name) whose answer is the whole own profile: the saved profile follows them. */
const OWN_PROFILE_ENDPOINTS = new Set(['getProfile', 'updateProfile', 'uploadAvatar', 'removeAvatar', 'setBackground']);
const isOwnProfileAnswer = (a: UnknownAction): a is PayloadAction<OwnProfile> =>
  (a.type === 'api/executeQuery/fulfilled' || a.type === 'api/executeMutation/fulfilled') &&
  OWN_PROFILE_ENDPOINTS.has((a as { meta?: { arg?: { endpointName?: string } } }).meta?.arg?.endpointName ?? '');

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
    builder.addMatcher(isOwnProfileAnswer, (state, { payload: p }) => {
      state.username = p.username;
      state.avatar = p.avatar;
      if (p.gender) state.gender = p.gender;
      if (p.age !== null) state.age = p.age;
      state.description = p.description;
      state.hobbies = p.hobbies;
      state.premiumUser = p.premiumUser;
      state.background = p.background;
    });
  },
});

export const profileActions = profileSlice.actions;
export default profileSlice.reducer;
