import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** The access token lives only here, in memory; the refresh token is an httpOnly cookie. */
export type AuthState = { token: string | null };

const initialState: AuthState = { token: null };

const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    setCredentials(state, action: PayloadAction<{ accessToken: string }>) {
      state.token = action.payload.accessToken;
    },
    logOut(state) {
      state.token = null;
    },
  },
});

export const { setCredentials, logOut } = authSlice.actions;
export default authSlice.reducer;
