import { createSlice, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';
import type { PersonSummary, Rating, UserProfile } from '@parley/contract/people';

/** The user whose profile is open (/users/:username); fields their owner keeps private stay empty. */
export type UserProfileState = {
  userId: string | null;
  username: string;
  avatar: string;
  gender: string | null;
  age: number | null;
  description: string;
  hobbies: string[];
  premiumUser: string;
  country: string;
  rating: Rating | null;
  createdAt: string | null;
  friendsList: PersonSummary[];
};

const initialState: UserProfileState = {
  userId: null,
  username: '',
  avatar: '',
  gender: null,
  age: null,
  description: '',
  hobbies: [],
  premiumUser: 'free tier',
  country: '',
  rating: null,
  createdAt: null,
  friendsList: [],
};

/** The profile page's query (app/api endpoint `getUserProfile`) fills this state when it answers. */
const isUserProfileAnswer = (a: UnknownAction): a is PayloadAction<UserProfile> =>
  a.type === 'api/executeQuery/fulfilled' &&
  (a as { meta?: { arg?: { endpointName?: string } } }).meta?.arg?.endpointName === 'getUserProfile';

const userProfileSlice = createSlice({
  name: 'userProfile',
  initialState,
  reducers: {
    setUserProfile(_state, action: PayloadAction<UserProfileState>) {
      return action.payload;
    },
    clearUserProfile() {
      return initialState;
    },
  },
  extraReducers: (builder) => {
    builder.addMatcher(isUserProfileAnswer, (_state, { payload: p }) => ({
      userId: p.userId,
      username: p.username,
      avatar: p.avatar,
      gender: p.gender ?? null,
      age: p.age ?? null,
      description: p.description ?? '',
      hobbies: p.hobbies ?? [],
      premiumUser: p.premiumUser,
      country: p.country ?? '',
      rating: p.rating,
      createdAt: p.createdAt,
      friendsList: p.friendsList ?? [],
    }));
  },
});

export const userProfileActions = userProfileSlice.actions;
export default userProfileSlice.reducer;
