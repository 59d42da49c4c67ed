import { describe, expect, it } from 'vitest';
import { setCredentials } from '../../lib/credentials';
import reducer, { profileActions } from './profileSlice';

const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const tokenFor = (claims: object) => `${b64url({ alg: 'HS256' })}.${b64url(claims)}.sig`;

describe('profileSlice', () => {
  it('takes the signed-in user from the token in the same step as the credentials', () => {
    const before = reducer(undefined, profileActions.setProfile({ description: 'hi', hobbies: ['chess'] }));
    const token = tokenFor({ username: 'alice', userId: 'u1', avatar: 'a.png', gender: 'female', age: 30, premiumUser: 'premium' });
    const after = reducer(before, setCredentials({ accessToken: token }));
    expect(after).toMatchObject({ username: 'alice', avatar: 'a.png', gender: 'female', age: 30, premiumUser: 'premium' });
    // What the token does not carry stays as it was.
    expect(after).toMatchObject({ description: 'hi', hobbies: ['chess'] });
  });

  it('keeps the saved gender and age when the token has none, and ignores a token naming nobody', () => {
    const before = reducer(undefined, profileActions.setProfile({ username: 'bob', gender: 'other', age: 41 }));
    const noDetails = reducer(before, setCredentials({ accessToken: tokenFor({ username: 'bob', userId: 'u2' }) }));
    expect(noDetails).toMatchObject({ username: 'bob', gender: 'other', age: 41 });
    expect(reducer(before, setCredentials({ accessToken: 'garbage' }))).toEqual(before);
  });
});
