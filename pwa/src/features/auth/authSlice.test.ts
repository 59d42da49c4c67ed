import { describe, expect, it } from 'vitest';
import reducer, { isSignedInUser, logOut, selectCurrentUser, selectIsSignedIn, sessionUnreachable, setCredentials } from './authSlice';

const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const tokenFor = (claims: object) => `${b64url({ alg: 'HS256' })}.${b64url(claims)}.sig`;
const alice = {
  username: 'alice',
  userId: 'u1',
  avatar: '',
  gender: 'female',
  age: 30,
  isVerified: true,
  premiumUser: 'free tier',
  exp: 9999999999,
};

describe('auth slice', () => {
  it('starts restoring with no token; credentials set it and logout clears it', () => {
    let s = reducer(undefined, { type: 'init' });
    expect(s).toEqual({ token: null, session: 'restoring' });
    s = reducer(s, setCredentials({ accessToken: 't1' }));
    expect(s).toEqual({ token: 't1', session: 'ready' });
    s = reducer(s, sessionUnreachable());
    expect(s.session).toBe('ready');
    s = reducer(s, logOut());
    expect(s).toEqual({ token: null, session: 'ready' });
  });

  it('decodes the signed-in user from the token', () => {
    const state = { auth: { token: tokenFor(alice), session: 'ready' as const } };
    expect(selectCurrentUser(state)).toMatchObject({ username: 'alice', userId: 'u1', gender: 'female', age: 30 });
    expect(selectIsSignedIn(state)).toBe(true);
    expect(selectCurrentUser({ auth: { token: 'garbage', session: 'ready' } })).toBeNull();
  });

  it('treats an empty username or the literal None as not signed in', () => {
    expect(isSignedInUser(null)).toBe(false);
    expect(isSignedInUser({ username: '' })).toBe(false);
    expect(isSignedInUser({ username: 'None' })).toBe(false);
    expect(isSignedInUser({ username: 'none_of_that' })).toBe(true);
    expect(selectIsSignedIn({ auth: { token: tokenFor({ ...alice, username: 'None' }), session: 'ready' } })).toBe(false);
  });
});

describe('the decoded user', () => {
  it('keeps exactly the spec fields and defaults what is missing', () => {
    const user = selectCurrentUser({
      auth: { token: tokenFor({ username: 'bob', userId: 'u2', gender: 'robot', iat: 1 }), session: 'ready' },
    });
    expect(user).toEqual({
      username: 'bob',
      userId: 'u2',
      avatar: '',
      gender: null,
      age: null,
      isVerified: false,
      premiumUser: 'free tier',
    });
    expect(selectCurrentUser({ auth: { token: tokenFor({ username: 3, userId: 'u2' }), session: 'ready' } })).toBeNull();
  });
});
