import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { OnlineUser } from '@parley/contract/presence';
import { closeRedis, createRedis } from '../platform/redis.ts';
import { createCluster, type Cluster } from './cluster.ts';
import { createInProcessPresence, type Presence } from './presence.ts';
import { redisPresence } from './redisPresence.ts';

const user = (id: string): OnlineUser => ({ userId: id, username: id, avatar: '' });
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** Presence as seen by "processes" of one deployment: one for the embedded default, any number on Redis. */
type Kind = { name: string; processes(n: number): Promise<Array<{ presence: Presence; cluster?: Cluster }>> };
const kinds: Kind[] = [
  {
    name: 'in process',
    async processes() {
      return [{ presence: createInProcessPresence() }];
    },
  },
];
if (process.env.REDIS_URL)
  kinds.push({
    name: 'Redis',
    async processes(n) {
      const prefix = `prtest${randomBytes(5).toString('hex')}:`;
      const out = [];
      for (let i = 0; i < n; i++) {
        const redis = createRedis(process.env.REDIS_URL!);
        const cluster = await createCluster(redis, prefix, (err) => console.error(err));
        closers.push(async () => {
          await cluster.close();
          const keys = await redis.keys(`${prefix}*`);
          if (keys.length > 0) await redis.del(...keys);
          await closeRedis(redis);
        });
        out.push({ presence: redisPresence(cluster), cluster });
      }
      return out;
    },
  });

describe.each(kinds)('presence ($name)', (kind) => {
  it('counts a user with several sockets once and reports the first and the last socket', async () => {
    const [{ presence: p }] = (await kind.processes(1)) as [{ presence: Presence }];
    expect(await p.join('s1', user('a'))).toBe(true);
    expect(await p.join('s2', user('a'))).toBe(false);
    expect(await p.join('s3', user('b'))).toBe(true);
    expect(await p.count()).toBe(2);
    expect(await p.leave('s1', 'a')).toBe(false);
    expect(await p.isOnline('a')).toBe(true);
    expect(await p.leave('s2', 'a')).toBe(true);
    // A socket that left already does not count twice.
    expect(await p.leave('s2', 'a')).toBe(false);
    expect(await p.page(null, 10)).toEqual([user('b')]);
  });

  it('pages by userId from a cursor, stable while others come and go, and finds given users', async () => {
    const [{ presence: p }] = (await kind.processes(1)) as [{ presence: Presence }];
    for (const id of ['d', 'b', 'e', 'a', 'c']) await p.join(`s-${id}`, user(id));
    expect((await p.page(null, 2)).map((u) => u.userId)).toEqual(['a', 'b']);
    await p.leave('s-b', 'b');
    await p.join('s-bb', user('bb'));
    expect((await p.page('b', 2)).map((u) => u.userId)).toEqual(['bb', 'c']);
    expect((await p.page('c', 5)).map((u) => u.userId)).toEqual(['d', 'e']);
    expect(await p.page('e', 5)).toEqual([]);
    expect((await p.online(['e', 'b', 'a'])).map((u) => u.userId)).toEqual(['e', 'a']);
    expect(await p.online([])).toEqual([]);
  });
});

describe.each(kinds.filter((k) => k.name === 'Redis'))('presence of several processes ($name)', (kind) => {
  it('counts tabs on two processes once, and reaps the users of a process that died', async () => {
    const [one, two, three] = await kind.processes(3);
    expect(await one!.presence.join('a1', user('a'))).toBe(true);
    expect(await two!.presence.join('a2', user('a'))).toBe(false);
    expect(await two!.presence.join('b1', user('b'))).toBe(true);
    expect(await one!.presence.count()).toBe(2);
    expect(await two!.presence.count()).toBe(2);
    // The second process dies (its heartbeat stops): b goes offline, a stays (a tab on the first).
    await two!.cluster!.close();
    const reaped = await (three!.presence as ReturnType<typeof redisPresence>).reap();
    expect(reaped).toEqual(['b']);
    expect(await one!.presence.count()).toBe(1);
    expect(await one!.presence.isOnline('a')).toBe(true);
    // Reaped once only.
    expect(await (one!.presence as ReturnType<typeof redisPresence>).reap()).toEqual([]);
    expect(await one!.presence.leave('a1', 'a')).toBe(true);
    expect(await three!.presence.count()).toBe(0);
    expect(await three!.presence.page(null, 10)).toEqual([]);
  });
});
