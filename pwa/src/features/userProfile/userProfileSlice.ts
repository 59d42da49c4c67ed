import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

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
  rating: number | null;
  createdAt: string | null;
  friendsList: string[];
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
});

export const userProfileActions = userProfileSlice.actions;
export default userProfileSlice.reducer;
