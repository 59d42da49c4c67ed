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
class FakeRealtime {
  channelsByName = new Map<string, FakeChannel>();
  authorized: unknown[] = [];
  closed = false;
  connects = 0;
  auth = { authorize: (_p: unknown, o: unknown) => (this.authorized.push(o), Promise.resolve({})) };
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
vi.mock('ably', () => ({ Realtime: FakeRealtime }));

const ROOM = '6f1c1b7e-1111-4a4a-8a8a-000000000001';
let probes: Array<{ url: string; authorization: string | null }> = [];
let enabled: boolean | null = true;

beforeEach(() => {
  vi.resetModules();
  made.length = 0;
  probes = [];
  vi.stubGlobal('fetch', (url: string, init?: { headers?: Record<string, string> }) => {
    probes.push({ url, authorization: init?.headers?.authorization ?? null });
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
    expect(probes.map((p) => p.url)).toEqual(['/api/auth/ably', '/api/auth/ably']);
    expect(made).toHaveLength(1);
  });

  it('with a key: the client gets its token through authUrl with the session, follows the room’s channel and reports gaps', async () => {
    enabled = true;
    const { followHostedRoom, setHostedAccessToken } = await import('./hostedRooms');
    setHostedAccessToken('t1');
    const onEvent = vi.fn();
    const onGap = vi.fn();
    const stop = await followHostedRoom(ROOM, onEvent, onGap);
    expect(made).toHaveLength(1);
    const { options, client } = made[0]!;
    expect(options).toEqual({ authUrl: '/api/auth/ablyclienttoken', authHeaders: { authorization: 'Bearer t1' }, autoConnect: false });
    expect(client.connects).toBe(1);
    // A room just joined is in a new token's capability only: the client asks for one before attaching.
    expect(client.authorized).toEqual([{ authUrl: '/api/auth/ablyclienttoken', authHeaders: { authorization: 'Bearer t1' } }]);
    const channel = client.channelsByName.get(`group:${ROOM}`)!;
    for (const l of channel.listeners) l({ name: 'room:message', data: { id: 7 } });
    expect(onEvent).toHaveBeenCalledWith('room:message', { id: 7 });
    for (const l of channel.states.get('attached')!) l({ resumed: true });
    expect(onGap).not.toHaveBeenCalled();
    for (const l of channel.states.get('attached')!) l({ resumed: false });
    expect(onGap).toHaveBeenCalledTimes(1);

    // A refreshed access token re-authorises at once; signing out closes the client.
    setHostedAccessToken('t2');
    await vi.waitFor(() => expect(client.authorized).toHaveLength(2));
    expect(client.authorized[1]).toEqual({ authUrl: '/api/auth/ablyclienttoken', authHeaders: { authorization: 'Bearer t2' } });
    stop();
    expect(channel.listeners.size).toBe(0);
    expect(channel.detached).toBe(true);
    setHostedAccessToken(null);
    await vi.waitFor(() => expect(client.closed).toBe(true));
  });
});
