import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatFilters } from '@parley/contract/matchmaking';
import { closeRedis, createRedis } from '../platform/redis.ts';
import { createCluster } from '../realtime/cluster.ts';
import type { Seeker } from './matcher.ts';
import { createInProcessMatchmaker, type Match, type Matchmaker } from './matchmaker.ts';
import { createRedisMatchmaker } from './redisMatchmaker.ts';

function seeker(ticket: string, over: Omit<Partial<Seeker>, 'filters'> & { filters?: Partial<ChatFilters> } = {}): Seeker {
  const { filters, ...rest } = over;
  return {
    ticket,
    userId: `u-${ticket}`,
    roomType: 'textChat',
    gender: 'male',
    age: 30,
    blocked: new Set(),
    ...rest,
    filters: { topics: [], gender: 'All', ageRange: { minAge: 18, maxAge: 99 }, ...filters },
  };
}

const OPTS = { topicFallbackMs: 300, recentCooldownMs: 400 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** What `read` gives once it equals `expected`, or at the deadline: a timer's tick may run late on a busy machine. */
async function eventually<T>(read: () => T, expected: T, withinMs = 10_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline && JSON.stringify(read()) !== JSON.stringify(expected)) await sleep(50);
  return read();
}

/** A way to make matchmakers sharing one queue: "processes" of one deployment. */
type Kind = { name: string; make(onMatch: (m: Match) => void): Promise<Matchmaker>; shared: boolean };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

// Matchmakers made in one test share a key prefix (one deployment); each test gets its own.
let prefix = '';
beforeEach(() => {
  prefix = `mmtest${randomBytes(5).toString('hex')}:`;
});

const kinds: Kind[] = [{ name: 'in process', shared: false, make: async (onMatch) => createInProcessMatchmaker(onMatch, OPTS) }];
if (process.env.REDIS_URL) {
  kinds.push({
    name: 'Redis',
    shared: true,
    async make(onMatch) {
      const redis = createRedis(process.env.REDIS_URL!);
      const cluster = await createCluster(redis, prefix, (err) => console.error(err));
      const mm = await createRedisMatchmaker(cluster, onMatch, { ...OPTS, leaseMs: 600, onError: (err) => console.error(err) });
      closers.push(async () => {
        await mm.close();
        await cluster.close();
        await redis.del(...(await redis.keys(`${prefix}*`)), `${prefix}none`);
        await closeRedis(redis);
      });
      return mm;
    },
  });
}

/** Matches as `[ticket, ticket]` pairs, sorted, for comparing. */
const pairs = (ms: Match[]) => ms.map((m) => [m.a.ticket, m.b.ticket].sort().join('+')).sort();

describe.each(kinds)('matchmaker ($name)', (kind) => {
  it('matches compatible seekers once, by the matcher’s rules, and counts who waits', async () => {
    const got: Match[] = [];
    const mm = await kind.make((m) => got.push(m));
    await mm.enqueue(seeker('a', { gender: 'female', filters: { gender: 'male' } }));
    // Does not fit a's filter (female wanted male; this one is female).
    await mm.enqueue(seeker('b', { gender: 'female' }));
    expect(got).toEqual([]);
    expect(await mm.waitingCount('textChat')).toBe(2);
    await mm.enqueue(seeker('c', { filters: { gender: 'female' } }));
    expect(pairs(got)).toEqual(['a+c']);
    // Never across room types; a blocked pair never.
    await mm.enqueue(seeker('d', { roomType: 'videoChat' }));
    await mm.enqueue(seeker('e', { blocked: new Set(['u-b']) }));
    expect(pairs(got)).toEqual(['a+c']);
    expect(await mm.waitingCount('textChat')).toBe(2);
    expect(await mm.waitingCount()).toBe(3);
    // Reported people meet only each other.
    await mm.enqueue(seeker('f', { inReview: true }));
    await mm.enqueue(seeker('g', { inReview: true }));
    expect(pairs(got)).toEqual(['a+c', 'f+g']);
    expect(got[0]!.roomId).not.toBe(got[1]!.roomId);
    expect(await mm.cancel('b')).toBe(true);
    expect(await mm.cancel('b')).toBe(false);
    expect(await mm.cancel('a')).toBe(false);
  });

  it('prefers shared topics, then falls back to anyone after the topic window', async () => {
    const got: Match[] = [];
    const mm = await kind.make((m) => got.push(m));
    await mm.enqueue(seeker('plain'));
    await mm.enqueue(seeker('jazz1', { filters: { topics: ['jazz'] } }));
    expect(got).toEqual([]);
    await mm.enqueue(seeker('jazz2', { filters: { topics: ['chess', 'jazz'] } }));
    expect(pairs(got)).toEqual(['jazz1+jazz2']);
    expect(got[0]!.sharedTopics).toEqual(['jazz']);
    await mm.enqueue(seeker('chess', { filters: { topics: ['chess'] } }));
    expect(await eventually(() => pairs(got), ['chess+plain', 'jazz1+jazz2'])).toEqual(['chess+plain', 'jazz1+jazz2']);
  });

  it('keeps recent partners apart until both have waited the cool-down', async () => {
    const got: Match[] = [];
    const mm = await kind.make((m) => got.push(m));
    await mm.enqueue(seeker('a'));
    await mm.enqueue(seeker('b'));
    expect(got).toHaveLength(1);
    await mm.enqueue(seeker('a2', { userId: 'u-a' }));
    await mm.enqueue(seeker('b2', { userId: 'u-b' }));
    expect(got).toHaveLength(1);
    // Not before the cool-down (checked above, at once), and soon after it.
    expect(await eventually(() => pairs(got), ['a+b', 'a2+b2'])).toEqual(['a+b', 'a2+b2']);
  });
});

describe.each(kinds.filter((k) => k.shared))('matchmakers of several processes ($name)', (kind) => {
  it('match seekers who joined in different processes, and a new leader takes over the queue', async () => {
    const seen: Array<[number, Match]> = [];
    const one = await kind.make((m) => seen.push([1, m]));
    const two = await kind.make((m) => seen.push([2, m]));
    await one.enqueue(seeker('a'));
    await two.enqueue(seeker('b'));
    // Every process hears every match; each acts on its own side.
    const heard = () => seen.map(([p, m]) => `${p}:${pairs([m])[0]}`).sort();
    expect(await eventually(heard, ['1:a+b', '2:a+b'])).toEqual(['1:a+b', '2:a+b']);
    await two.enqueue(seeker('c', { filters: { gender: 'female' } }));
    // The leader (the first) stops: the second takes the lease and the queue.
    await one.close();
    await sleep(800);
    await two.enqueue(seeker('d', { gender: 'female' }));
    const second = () => seen.filter(([p]) => p === 2).map(([, m]) => pairs([m])[0]);
    expect(await eventually(second, ['a+b', 'c+d'])).toEqual(['a+b', 'c+d']);
  });

  it('never matches a search twice under concurrent joins and cancels in three processes', async () => {
    const matched = new Map<string, string>();
    const errors: string[] = [];
    const record = (m: Match) => {
      for (const t of [m.a.ticket, m.b.ticket]) {
        if (matched.has(t) && matched.get(t) !== m.roomId) errors.push(`${t} twice`);
        matched.set(t, m.roomId);
      }
    };
    const mms = [await kind.make(record), await kind.make(() => undefined), await kind.make(() => undefined)];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const cancelled = new Set<string>();
    const ops: Promise<unknown>[] = [];
    for (let i = 0; i < 300; i++) {
      const mm = mms[rand(3)]!;
      const t = `t${i}`;
      ops.push(mm.enqueue(seeker(t)));
      if (rand(3) === 0) {
        const victim = `t${rand(i + 1)}`;
        ops.push(
          mm.cancel(victim).then((was) => {
            if (was) cancelled.add(victim);
          }),
        );
      }
    }
    await Promise.all(ops);
    await sleep(300);
    expect(errors).toEqual([]);
    // A search cancelled while waiting was never matched, and who still waits is all in the queue.
    for (const t of cancelled) expect(matched.has(t)).toBe(false);
    const waiting = await mms[0]!.waitingCount();
    expect(waiting + matched.size + cancelled.size).toBe(300);
  });
});
