import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The `ably` client as far as the rooms use it: what it was made with, its channels and their listeners. */
const made: Array<{ options: unknown; client: FakeRealtime }> = [];
class FakeChannel {
  listeners = new Set<(m: { name?: string; data: unknown }) => void>();
  states = new Map<string, Set<(c: { resumed: boolean }) => void>>();
  detached = false;
  constructor(readonly name: string) {}
  subscribe(l: (m: { name?: string; data: unknown }) => void) {
    this.listeners.add(l);
    return Promise.resolve();
  }
  unsubscribe(l: (m: { name?: string; data: unknown }) => void) {
    this.listeners.delete(l);
  }
  on(event: string, l: (c: { resumed: boolean }) => void) {
    this.states.set(event, (this.states.get(event) ?? new Set()).add(l));
  }
  off(event: string, l: (c: { resumed: boolean }) => void) {
    this.states.get(event)?.delete(l);
  }
  detach() {
    this.detached = true;
    return Promise.resolve();
  }
}
class FakeErrorInfo extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly statusCode: number,
  ) {
    super(message);
  }
}
type AuthCallback = (params: unknown, cb: (err: unknown, token: unknown) => void) => void;
class FakeRealtime {
  channelsByName = new Map<string, FakeChannel>();
  authorized: unknown[] = [];
  /** What each token call gave the client: a token request or the error it was failed with. */
  tokens: Array<{ err: unknown; token: unknown }> = [];
  closed = false;
  connects = 0;
  auth = {
    // As the client does: a new token through the authCallback, rejecting with the error it was given.
    authorize: (_p: unknown, o: { authCallback: AuthCallback }) => {
      this.authorized.push(o);
      return new Promise((resolve, reject) =>
        o.authCallback({}, (err, token) => {
          this.tokens.push({ err, token });
          if (err) reject(err);
          else resolve(token);
        }),
      );
    },
  };
  channels = {
    get: (name: string) => this.channelsByName.get(name) ?? this.channelsByName.set(name, new FakeChannel(name)).get(name)!,
  };
  constructor(options: unknown) {
    made.push({ options, client: this });
  }
  connect() {
    this.connects++;
  }
  close() {
    this.closed = true;
  }
}
vi.mock('ably', () => ({ Realtime: FakeRealtime, ErrorInfo: FakeErrorInfo }));

const ROOM = '6f1c1b7e-1111-4a4a-8a8a-000000000001';
let probes: Array<{ url: string; authorization: string | null }> = [];
let enabled: boolean | null = true;
/** How the token path answers: a status (200 gives a token request). */
let tokenStatus = 200;
const TOKEN_REQUEST = { keyName: 'app.key', ttl: 600000, capability: '{}', clientId: 'u1', timestamp: 1, nonce: 'n', mac: 'm' };

beforeEach(() => {
  vi.resetModules();
  made.length = 0;
  probes = [];
  tokenStatus = 200;
  vi.stubGlobal('fetch', (url: string, init?: { headers?: Record<string, string> }) => {
    probes.push({ url, authorization: init?.headers?.authorization ?? null });
    if (url === '/api/auth/ablyclienttoken')
      return Promise.resolve(
        tokenStatus === 200 ? Response.json(TOKEN_REQUEST) : Response.json({ message: 'no', code: 'x' }, { status: tokenStatus }),
      );
    return Promise.resolve(enabled === null ? new Response('', { status: 502 }) : Response.json({ enabled }));
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('group rooms over a hosted channel', () => {
  it('without a key on the server there is no Ably client and no token asked for: rooms stay on socket.io', async () => {
    enabled = false;
    const { followHostedRoom, setHostedAccessToken } = await import('./hostedRooms');
    setHostedAccessToken('t1');
    const onEvent = vi.fn();
    const stop = await followHostedRoom(ROOM, onEvent, vi.fn());
    await followHostedRoom(ROOM, onEvent, vi.fn());
    expect(made).toEqual([]);
    // The server's configuration, asked once, decides for the page's life.
    expect(probes).toEqual([{ url: '/api/auth/ably', authorization: null }]);
    stop();
  });

  it('no answer about the configuration (the server away) asks again next time', async () => {
    enabled = null;
    const { followHostedRoom, setHostedAccessToken } = await import('./hostedRooms');
    setHostedAccessToken('t1');
    await followHostedRoom(ROOM, vi.fn(), vi.fn());
    enabled = true;
    await followHostedRoom(ROOM, vi.fn(), vi.fn());
    expect(probes.map((p) => p.url)).toEqual(['/api/auth/ably', '/api/auth/ably', '/api/auth/ablyclienttoken']);
    expect(made).toHaveLength(1);
  });

  it('with a key: the client gets its token through our token call with the session, follows the room’s channel and reports gaps', async () => {
    enabled = true;
    const { followHostedRoom, setHostedAccessToken } = await import('./hostedRooms');
    setHostedAccessToken('t1');
    const onEvent = vi.fn();
    const onGap = vi.fn();
    const stop = await followHostedRoom(ROOM, onEvent, onGap);
    expect(made).toHaveLength(1);
    const { options, client } = made[0]!;
    expect(options).toMatchObject({ autoConnect: false, realtimeRequestTimeout: 16_000 });
    expect(options).not.toHaveProperty('authUrl');
    expect(client.connects).toBe(1);
    // A room just joined is in a new token's capability only: the client asks for one before attaching.
    expect(client.authorized).toHaveLength(1);
    expect(client.tokens).toEqual([{ err: null, token: TOKEN_REQUEST }]);
    expect(probes.at(-1)).toEqual({ url: '/api/auth/ablyclienttoken', authorization: 'Bearer t1' });
    const channel = client.channelsByName.get(`group:${ROOM}`)!;
    for (const l of channel.listeners) l({ name: 'room:message', data: { id: 7 } });
    expect(onEvent).toHaveBeenCalledWith('room:message', { id: 7 });
    for (const l of channel.states.get('attached')!) l({ resumed: true });
    expect(onGap).not.toHaveBeenCalled();
    for (const l of channel.states.get('attached')!) l({ resumed: false });
    expect(onGap).toHaveBeenCalledTimes(1);

    // A refreshed access token re-authorises at once; signing out closes the client.
    setHostedAccessToken('t2');
    await vi.waitFor(() => expect(client.tokens).toHaveLength(2));
    expect(probes.at(-1)).toEqual({ url: '/api/auth/ablyclienttoken', authorization: 'Bearer t2' });
    stop();
    expect(channel.listeners.size).toBe(0);
    expect(channel.detached).toBe(true);
    setHostedAccessToken(null);
    await vi.waitFor(() => expect(client.closed).toBe(true));
  });

  it('a failed token call is told to the page in the client’s words, once per run of failures, and the client still connects to retry', async () => {
    enabled = true;
    tokenStatus = 503;
    const { followHostedRoom, setHostedAccessToken } = await import('./hostedRooms');
    setHostedAccessToken('t1');
    const onProblem = vi.fn();
    const stop = await followHostedRoom(ROOM, vi.fn(), vi.fn(), onProblem);
    const { client } = made[0]!;
    expect(onProblem).toHaveBeenCalledTimes(1);
    expect(onProblem.mock.calls[0]![0]).toMatchObject({ message: 'Error response received from server: 503', statusCode: 503 });
    // The client is failed with an error of its own kind that keeps the status (not turned into 401).
    const given = client.tokens[0]!.err as FakeErrorInfo;
    expect(given).toBeInstanceOf(FakeErrorInfo);
    expect([given.message, given.statusCode, given.code]).toEqual(['Error response received from server: 503', 503, 40170]);
    expect(client.connects).toBe(1);

    // The client's own retries fail again: not said again until a token came in between.
    await client.auth
      .authorize(undefined, { authCallback: (made[0]!.options as { authCallback: AuthCallback }).authCallback })
      .catch(() => undefined);
    expect(onProblem).toHaveBeenCalledTimes(1);
    tokenStatus = 200;
    await client.auth.authorize(undefined, { authCallback: (made[0]!.options as { authCallback: AuthCallback }).authCallback });
    tokenStatus = 500;
    await client.auth
      .authorize(undefined, { authCallback: (made[0]!.options as { authCallback: AuthCallback }).authCallback })
      .catch(() => undefined);
    expect(onProblem).toHaveBeenCalledTimes(2);
    expect(onProblem.mock.calls[1]![0]).toMatchObject({ message: 'Error response received from server: 500', statusCode: 500 });

    // A page gone hears nothing more.
    stop();
    tokenStatus = 200;
    await client.auth.authorize(undefined, { authCallback: (made[0]!.options as { authCallback: AuthCallback }).authCallback });
    tokenStatus = 503;
    await client.auth
      .authorize(undefined, { authCallback: (made[0]!.options as { authCallback: AuthCallback }).authCallback })
      .catch(() => undefined);
    expect(onProblem).toHaveBeenCalledTimes(2);
  });
});
