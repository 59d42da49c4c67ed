import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  applyOnlineUsersDelta,
  ONLINE_PAGE_SIZE,
  PRESENCE_COALESCE_MS,
  type OnlineUser,
  type OnlineUsersDelta,
  type OnlineUsersPage,
} from '@parley/contract/presence';
import { createInProcessPresence } from './presence.ts';
import { DELTA_INTERVAL_MAX_MS, deltaInterval, PresenceBroadcaster } from './presenceBroadcast.ts';

const user = (id: string): OnlineUser => ({ userId: id, username: id, avatar: '' });
const id = (i: number) => `u${String(i).padStart(4, '0')}`;

function setup(friends: Record<string, string[]> = {}) {
  const presence = createInProcessPresence();
  const sink = {
    firstPage: vi.fn<(ids: string[], p: OnlineUsersPage) => void>(),
    count: vi.fn<(n: number) => void>(),
    delta: vi.fn<(socketIds: string[], d: OnlineUsersDelta) => void>(),
  };
  const looked: string[][] = [];
  const friendIds = async (ids: readonly string[]) => {
    looked.push([...ids]);
    return new Map(ids.map((id) => [id, friends[id] ?? []]));
  };
  const b = new PresenceBroadcaster(
    presence,
    sink,
    (e) => {
      throw e;
    },
    friendIds,
  );
  const online = async (uid: string) => {
    await presence.join(`s-${uid}`, user(uid));
    b.userOnline(user(uid));
  };
  const offline = async (uid: string) => {
    await presence.leave(`s-${uid}`, uid);
    b.userOffline(uid);
  };
  return { presence, sink, b, online, offline, looked };
}

describe('presence broadcasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends newcomers one shared first page of at most a page, with the count and a cursor', async () => {
    const { sink, b, online, looked } = setup();
    for (let i = 0; i < 120; i++) await online(id(i));
    b.socketConnected('x', 'me');
    b.socketConnected('y', 'you');
    await vi.advanceTimersByTimeAsync(PRESENCE_COALESCE_MS);
    expect(sink.firstPage).toHaveBeenCalledTimes(1);
    const [ids, page] = sink.firstPage.mock.calls[0]!;
    expect(ids).toEqual(['x', 'y']);
    // One friends lookup for the beat's newcomers, not one per connection.
    expect(looked).toEqual([['me', 'you']]);
    expect(page.count).toBe(120);
    expect(page.users.map((u) => u.userId)).toEqual(Array.from({ length: ONLINE_PAGE_SIZE }, (_, i) => id(i)));
    expect(page.cursor).toBe(id(49));
    const second = await b.more('x', page.cursor!);
    expect(second.users[0]!.userId).toBe(id(50));
    const third = await b.more('x', second.cursor!);
    expect(third.users).toHaveLength(20);
    expect(third.cursor).toBeNull();
    // Only the cursor last given is accepted.
    await expect(b.more('x', page.cursor!)).rejects.toThrow('not available');
    await expect(b.more('nobody', page.cursor!)).rejects.toThrow('not available');
    b.close();
  });

  it('puts online friends first, and continues after the others it showed', async () => {
    const { sink, b, online } = setup({ me: [id(55), id(3), 'offline-friend'] });
    for (let i = 0; i < 60; i++) await online(id(i));
    b.socketConnected('x', 'me');
    await vi.advanceTimersByTimeAsync(PRESENCE_COALESCE_MS);
    const page = sink.firstPage.mock.calls[0]![1];
    expect(page.users.slice(0, 2).map((u) => u.userId)).toEqual([id(55), id(3)]);
    expect(page.users).toHaveLength(ONLINE_PAGE_SIZE - 1); // id(3) is not repeated among the others
    expect(new Set(page.users.map((u) => u.userId)).size).toBe(page.users.length);
    expect(page.cursor).toBe(id(47));
    expect((await b.more('x', page.cursor!)).users.map((u) => u.userId)).toEqual(Array.from({ length: 12 }, (_, i) => id(48 + i)));
    b.close();
  });

  it('tells each socket only what it holds: removals of held users, additions while short or of friends, always the count', async () => {
    const { sink, b, online, offline } = setup({ her: ['late'] });
    for (let i = 0; i < 60; i++) await online(id(i));
    await vi.advanceTimersByTimeAsync(deltaInterval(0));
    b.socketConnected('full', 'him');
    b.socketConnected('friend', 'her');
    await vi.advanceTimersByTimeAsync(PRESENCE_COALESCE_MS);
    sink.count.mockClear();
    await online('late');
    await offline(id(59)); // held by nobody: beyond the first page
    await offline(id(0)); // held by both
    await vi.advanceTimersByTimeAsync(deltaInterval(60));
    expect(sink.count).toHaveBeenCalledWith(59);
    const deltas = new Map(sink.delta.mock.calls.flatMap(([ids, d]) => ids.map((s) => [s, d] as const)));
    // Removals first: 'full' fell to 49 held, so the newcomer fills its place.
    expect(deltas.get('full')).toEqual({ added: [user('late')], removed: [id(0)], count: 59 });
    expect(deltas.get('friend')).toEqual({ added: [user('late')], removed: [id(0)], count: 59 });
    expect(applyOnlineUsersDelta([user(id(0)), user('a')], deltas.get('full')!).map((u) => u.userId)).toEqual(['a', 'late']);
    // Both hold a full page again: someone else coming online changes only the count.
    sink.delta.mockClear();
    sink.count.mockClear();
    await online('zz');
    await vi.advanceTimersByTimeAsync(deltaInterval(60));
    expect(sink.delta).not.toHaveBeenCalled();
    expect(sink.count).toHaveBeenCalledWith(60);
    b.socketDisconnected('full');
    sink.delta.mockClear();
    await offline(id(1));
    await vi.advanceTimersByTimeAsync(deltaInterval(60));
    expect(sink.delta.mock.calls.map(([ids]) => ids)).toEqual([['friend']]);
    b.close();
  });

  it('holds a first page once for all who got it, and gives a socket its own copy when a friend or a further page is its alone', async () => {
    const { sink, b, online, offline } = setup({ her: ['late'] });
    for (let i = 0; i < 60; i++) await online(id(i));
    await vi.advanceTimersByTimeAsync(deltaInterval(0));
    for (const s of ['a', 'b', 'c']) b.socketConnected(s, `him-${s}`);
    b.socketConnected('friend', 'her');
    await vi.advanceTimersByTimeAsync(PRESENCE_COALESCE_MS);
    const [ids, page] = sink.firstPage.mock.calls[0]!;
    expect(ids).toEqual(['a', 'b', 'c', 'friend']);
    // A change to what all four hold is one delta to all of them at once.
    await offline(id(3));
    await online('new');
    await vi.advanceTimersByTimeAsync(deltaInterval(60));
    expect(sink.delta.mock.calls).toEqual([[['a', 'b', 'c', 'friend'], { added: [user('new')], removed: [id(3)], count: 60 }]]);
    // In one interval a held user goes, a newcomer fills the place, and then her friend comes online
    // while all hold a full page: she hears all three, the others the first two.
    sink.delta.mockClear();
    await offline(id(7));
    await online('fill');
    await online('late');
    await vi.advanceTimersByTimeAsync(deltaInterval(60));
    expect(sink.delta.mock.calls).toEqual([
      [['a', 'b', 'c'], { added: [user('fill')], removed: [id(7)], count: 61 }],
      [['friend'], { added: [user('fill'), user('late')], removed: [id(7)], count: 61 }],
    ]);
    // A further page is a's alone; a held user of the first page still goes from everyone's.
    sink.delta.mockClear();
    const second = await b.more('a', page.cursor!);
    expect(second.users[0]!.userId).toBe(id(50));
    await offline(id(5));
    await offline(id(55));
    await vi.advanceTimersByTimeAsync(deltaInterval(60));
    const calls = new Map(sink.delta.mock.calls.map(([to, d]) => [to.join(), d.removed]));
    expect(calls).toEqual(
      new Map([
        ['b,c', [id(5)]],
        ['friend', [id(5)]],
        ['a', [id(5), id(55)]],
      ]),
    );
    // The last socket of a holding takes it away: nothing is sent to the gone.
    sink.delta.mockClear();
    for (const s of ['a', 'b', 'c', 'friend']) b.socketDisconnected(s);
    await offline(id(6));
    await vi.advanceTimersByTimeAsync(deltaInterval(60));
    expect(sink.delta).not.toHaveBeenCalled();
    b.close();
  });

  it('coalesces changes into one count per interval, longer with many online', async () => {
    const { sink, b, online, offline } = setup();
    for (const u of ['a', 'b', 'c']) await online(u);
    await offline('b');
    await vi.advanceTimersByTimeAsync(deltaInterval(0));
    expect(sink.count.mock.calls).toEqual([[2]]);
    expect(deltaInterval(0)).toBe(PRESENCE_COALESCE_MS);
    expect(deltaInterval(5000)).toBe(DELTA_INTERVAL_MAX_MS);
    b.close();
  });

  it('gives every socket the list it would hold alone, whatever the connections, friends, pages and changes', async () => {
    const people = Array.from({ length: 70 }, (_, i) => id(i));
    const op = fc.oneof(
      // Each of these goes online if offline, offline if online: both kinds in one interval.
      fc.record({ t: fc.constant('toggle' as const), who: fc.subarray(people, { maxLength: 12 }) }),
      fc.record({ t: fc.constant('connect' as const), n: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ t: fc.constant('disconnect' as const), i: fc.nat() }),
      fc.record({ t: fc.constant('more' as const), i: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { maxLength: 25 }),
        fc.array(fc.subarray(people, { maxLength: 5 }), { minLength: 8, maxLength: 8 }),
        async (ops, friendLists) => {
          // Eight people own the sockets; each has a few friends among the others.
          const owners = Array.from({ length: 8 }, (_, i) => `owner${i}`);
          const { sink, b, online, offline, presence } = setup(Object.fromEntries(owners.map((o, i) => [o, friendLists[i]!])));
          for (let i = 0; i < 55; i++) await online(people[i]!);
          await vi.advanceTimersByTimeAsync(DELTA_INTERVAL_MAX_MS);
          // What each socket's page shows (first page, deltas, further pages) against a model that
          // holds each socket's list alone, by the rules of what a socket hears.
          const shown = new Map<string, OnlineUser[]>();
          const model = new Map<string, { held: Set<string>; friends: Set<string>; cursor: string | null }>();
          let sockets = 0;
          const flush = async (changes: Map<string, boolean>) => {
            sink.delta.mockClear();
            await vi.advanceTimersByTimeAsync(DELTA_INTERVAL_MAX_MS);
            for (const [ids, d] of sink.delta.mock.calls) for (const s of ids) shown.set(s, applyOnlineUsersDelta(shown.get(s)!, d));
            for (const [u, on] of changes) if (!on) for (const m of model.values()) m.held.delete(u);
            for (const [u, on] of changes)
              if (on) for (const m of model.values()) if (m.friends.has(u) || m.held.size < ONLINE_PAGE_SIZE) m.held.add(u);
          };
          for (const o of ops) {
            if (o.t === 'toggle') {
              const changes = new Map<string, boolean>();
              for (const u of o.who) {
                const isOn = (await presence.online([u])).length > 0;
                await (isOn ? offline(u) : online(u));
                changes.set(u, !isOn);
              }
              await flush(changes);
            } else if (o.t === 'connect') {
              sink.firstPage.mockClear();
              const fresh: Array<[string, number]> = [];
              for (let k = 0; k < o.n; k++) {
                const s = `s${sockets++}`;
                const owner = sockets % 8;
                fresh.push([s, owner]);
                b.socketConnected(s, owners[owner]!);
              }
              await vi.advanceTimersByTimeAsync(PRESENCE_COALESCE_MS);
              for (const [ids, page] of sink.firstPage.mock.calls)
                for (const s of ids) {
                  shown.set(s, page.users);
                  const owner = fresh.find(([f]) => f === s)![1];
                  model.set(s, {
                    held: new Set(page.users.map((u) => u.userId)),
                    friends: new Set(friendLists[owner]),
                    cursor: page.cursor,
                  });
                }
            } else {
              const live = [...model.keys()];
              if (live.length === 0) continue;
              const s = live[o.i % live.length]!;
              if (o.t === 'disconnect') {
                b.socketDisconnected(s);
                model.delete(s);
                shown.delete(s);
              } else {
                const m = model.get(s)!;
                if (!m.cursor) continue;
                const page = await b.more(s, m.cursor);
                m.cursor = page.cursor;
                for (const u of page.users) m.held.add(u.userId);
                shown.set(s, [...shown.get(s)!, ...page.users.filter((u) => !shown.get(s)!.some((x) => x.userId === u.userId))]);
              }
            }
            for (const [s, m] of model) expect(new Set(shown.get(s)!.map((u) => u.userId)), s).toEqual(m.held);
          }
          b.close();
        },
      ),
      { numRuns: 150 },
    );
  });
});
