import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './api';
import { makeStore } from '../app/store';
import { setCredentials } from '../features/auth/authSlice';
import { profileActions } from '../features/people/profileSlice';
import { searchPreferencesActions } from '../realtime/searchPreferences';

// A signed-in endpoint the tests call, injected the way features add theirs.
const testApi = api.injectEndpoints({
  endpoints: (b) => ({ secret: b.query<{ ok: boolean }, void>({ query: () => '/api/test/secret' }) }),
});

type Call = { url: string; auth: string | null };

// Node has no page origin; the browser resolves the helper's same-origin paths itself.
class SameOriginRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, 'http://localhost') : input, init);
  }
}

function fakeServer(handler: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  vi.stubGlobal('Request', SameOriginRequest);
  vi.stubGlobal('fetch', async (input: Request) => {
    const call = { url: new URL(input.url, 'http://x').pathname, auth: input.headers.get('authorization') };
    calls.push(call);
    return handler(call);
  });
  return calls;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('the request helper', () => {
  it('refreshes once for concurrent 401s, then retries each call with the new token', async () => {
    const calls = fakeServer(async ({ url, auth }) => {
      if (url === '/api/auth/refresh') {
        await new Promise((r) => setTimeout(r, 20));
        return json(200, { accessToken: 'fresh' });
      }
      return auth === 'Bearer fresh' ? json(200, { ok: true }) : json(401, { message: 'Unauthorized', code: 'unauthorized' });
    });
    const store = makeStore();
    store.dispatch(setCredentials({ accessToken: 'stale' }));
    const results = await Promise.all(
      [1, 2, 3].map(() => store.dispatch(testApi.endpoints.secret.initiate(undefined, { forceRefetch: true }))),
    );
    expect(results.every((r) => r.data?.ok)).toBe(true);
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
    expect(store.getState().auth.token).toBe('fresh');
  });

  it('signs out silently when the refresh fails, forgetting the user but keeping device preferences', async () => {
    fakeServer(() => json(401, { message: 'Unauthorized', code: 'unauthorized' }));
    const store = makeStore();
    store.dispatch(setCredentials({ accessToken: 'stale' }));
    store.dispatch(profileActions.setProfile({ username: 'alice', description: 'hi' }));
    store.dispatch(searchPreferencesActions.setChatFilters({ topics: ['music'], gender: 'female', ageRange: { minAge: 20, maxAge: 30 } }));
    const r = await store.dispatch(testApi.endpoints.secret.initiate());
    expect(r.error).toMatchObject({ status: 401 });
    const s = store.getState();
    expect(s.auth.token).toBeNull();
    expect(s.profile.username).toBe('');
    expect(s.searchPreferences.chatFilters.topics).toEqual(['music']);
  });

  it('keeps the session when the refresh cannot reach the server', async () => {
    fakeServer(({ url }) => (url === '/api/auth/refresh' ? Promise.reject(new TypeError('Failed to fetch')) : json(401, {})));
    const store = makeStore();
    store.dispatch(setCredentials({ accessToken: 'stale' }));
    const r = await store.dispatch(testApi.endpoints.secret.initiate());
    expect(r.error).toMatchObject({ status: 401 });
    expect(store.getState().auth.token).toBe('stale');
  });

  it('reports the error kinds: FETCH_ERROR, PARSING_ERROR with the body text, numeric status with data', async () => {
    const store = makeStore();
    fakeServer(() => Promise.reject(new TypeError('Failed to fetch')));
    expect((await store.dispatch(testApi.endpoints.secret.initiate(undefined, { forceRefetch: true }))).error).toMatchObject({
      status: 'FETCH_ERROR',
    });
    fakeServer(() => new Response('<html>oops</html>', { status: 502, headers: { 'content-type': 'application/json' } }));
    expect((await store.dispatch(testApi.endpoints.secret.initiate(undefined, { forceRefetch: true }))).error).toMatchObject({
      status: 'PARSING_ERROR',
      originalStatus: 502,
      data: '<html>oops</html>',
    });
    fakeServer(() => json(403, { message: 'No', code: 'forbidden' }));
    expect((await store.dispatch(testApi.endpoints.secret.initiate(undefined, { forceRefetch: true }))).error).toEqual({
      status: 403,
      data: { message: 'No', code: 'forbidden' },
    });
  });

  it('logout clears the token and every cached answer even when the call fails', async () => {
    fakeServer(({ url }) => (url === '/api/auth/logout' ? Promise.reject(new TypeError('offline')) : json(200, { ok: true })));
    const store = makeStore();
    store.dispatch(setCredentials({ accessToken: 't' }));
    await store.dispatch(testApi.endpoints.secret.initiate());
    expect(Object.keys(store.getState().api?.queries ?? {})).not.toHaveLength(0);
    await store.dispatch(api.endpoints.logout.initiate());
    expect(store.getState().auth.token).toBeNull();
    expect(store.getState().api?.queries).toEqual({});
  });
});
