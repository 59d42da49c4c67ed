import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyOnlineUsersDelta, PRESENCE_COALESCE_MS, type OnlineUser, type OnlineUsersDelta } from '@parley/contract/presence';
import { createInProcessPresence, deltaInterval, fullListInterval, PresenceBroadcaster } from './presence.ts';

const user = (id: string): OnlineUser => ({ userId: id, username: id, avatar: '' });

describe('in-process presence', () => {
  it('counts a user with several sockets once and reports first and last socket', async () => {
    const p = createInProcessPresence();
    expect(await p.join('s1', user('a'))).toBe(true);
    expect(await p.join('s2', user('a'))).toBe(false);
    expect(await p.count()).toBe(1);
    expect(await p.leave('s1', 'a')).toBe(false);
    expect(await p.isOnline('a')).toBe(true);
    expect(await p.leave('s2', 'a')).toBe(true);
    expect(await p.list()).toEqual([]);
  });
});

describe('presence broadcasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('coalesces changes into one delta and one full list, and sends newcomers the list', async () => {
    const presence = createInProcessPresence();
    const sink = { snapshot: vi.fn(), delta: vi.fn<(d: OnlineUsersDelta) => void>(), fullList: vi.fn() };
    const b = new PresenceBroadcaster(presence, sink, (e) => {
      throw e;
    });
    for (const id of ['a', 'b', 'c']) {
      await presence.join(`s-${id}`, user(id));
      b.userOnline(user(id));
      b.socketConnected(`s-${id}`);
    }
    await presence.leave('s-b', 'b');
    b.userOffline('b');
    await vi.advanceTimersByTimeAsync(PRESENCE_COALESCE_MS);
    expect(sink.snapshot).toHaveBeenCalledTimes(1);
    expect(sink.snapshot.mock.calls[0]![0]).toEqual(['s-a', 's-b', 's-c']);
    await vi.advanceTimersByTimeAsync(deltaInterval(0));
    expect(sink.delta).toHaveBeenCalledTimes(1);
    const delta = sink.delta.mock.calls[0]![0];
    expect(delta).toEqual({ added: [user('a'), user('c')], removed: ['b'], count: 2 });
    expect(applyOnlineUsersDelta([user('b'), user('z')], delta).map((u) => u.userId)).toEqual(['z', 'a', 'c']);
    expect(sink.fullList).toHaveBeenCalledTimes(1);
    b.close();
  });

  it('spaces full lists further apart as the online count grows', () => {
    expect(fullListInterval(10)).toBe(PRESENCE_COALESCE_MS);
    expect(fullListInterval(2000)).toBeGreaterThan(10_000);
    expect(fullListInterval(1_000_000)).toBe(30_000);
    expect(deltaInterval(0)).toBe(PRESENCE_COALESCE_MS);
    expect(deltaInterval(5000)).toBe(1000);
  });
});
