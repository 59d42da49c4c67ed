import { randomUUID } from 'node:crypto';
import { ROOM_TYPES } from '@parley/contract/constants';
import { startSearchSchema, type RoomType, type StartSearch } from '@parley/contract/matchmaking';
import type { Cluster } from '../realtime/cluster.ts';
import { Matcher, type MatcherOptions, type Pairing, type Seeker } from './matcher.ts';
import type { Match, Matchmaker, MatchListener } from './matchmaker.ts';

/**
 * The matchmaker of several API processes (REDIS_URL): one elected matcher, the others forward.
 *
 * Every process writes a search to a Redis hash per room type (the truth of who waits) and appends
 * it to an operations list. The process holding the lease (`mm:leader`, renewed every second,
 * 3 s to expire) pops the operations in order and runs them through the same Matcher as the
 * embedded default, so the rules are one code. A pairing becomes a match only through one script
 * that checks both searches are still the ones it saw in the hash, removes them, records the
 * partners and publishes the match on the cluster bus: a search cancelled meanwhile (its process
 * removed it from the hash) voids the match, and its partner goes back to waiting. A new leader
 * rebuilds its Matcher from the hash and the recent partners stored by that script. See
 * docs/scale-out.md for why this rather than a script per join.
 */
export type RedisMatchmakerOptions = MatcherOptions & { now?: () => number; leaseMs?: number; onError(err: unknown): void };

const RECENT_TTL_MS = 30 * 60_000;
/** How long a join waits to hear that the matcher took it before it reports waiting anyway. */
const TAKEN_WITHIN_MS = 1000;
/** Lease renewals between two reconciliations of the matcher with the hash. */
const RECONCILE_EVERY = 5;

/** A waiting search as stored: `v` first, so the script can check the version by prefix. */
type Stored = { v: string; at: number; s: Omit<Seeker, 'blocked'> & { blocked: string[] } };

const COMMIT = `
local function current(ticket, v)
  local raw = redis.call('HGET', KEYS[1], ticket)
  return raw and string.sub(raw, 1, #v + 7) == '{"v":"' .. v .. '"'
end
if not current(ARGV[1], ARGV[2]) then return 1 end
if not current(ARGV[3], ARGV[4]) then return 2 end
redis.call('HDEL', KEYS[1], ARGV[1], ARGV[3])
local pairs_ = { { KEYS[2], ARGV[6] }, { KEYS[3], ARGV[5] } }
for _, p in ipairs(pairs_) do
  redis.call('LREM', p[1], 0, p[2])
  redis.call('LPUSH', p[1], p[2])
  redis.call('LTRIM', p[1], 0, tonumber(ARGV[7]) - 1)
  redis.call('PEXPIRE', p[1], ARGV[8])
end
redis.call('PUBLISH', ARGV[9], ARGV[10])
return 0
`;

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

const toWire = (s: Seeker) => ({ ...s, blocked: [...s.blocked] });
const fromWire = (s: Stored['s']): Seeker => ({ ...s, blocked: new Set(s.blocked) });

export async function createRedisMatchmaker(cluster: Cluster, onMatch: MatchListener, opts: RedisMatchmakerOptions): Promise<Matchmaker> {
  const { redis, prefix, instanceId } = cluster;
  const now = opts.now ?? (() => performance.now());
  const leaseMs = opts.leaseMs ?? 3000;
  const waitKey = (room: RoomType) => `${prefix}mm:wait:${room}`;
  const recentKey = (userId: string) => `${prefix}mm:recent:${userId}`;
  const opsKey = `${prefix}mm:ops`;
  const leaderKey = `${prefix}mm:leader`;
  const recentPartners = opts.recentPartners ?? 3;

  // A join here resolves once the matcher has taken it: matched, or waiting. The caller then
  // knows which, as with the embedded matcher (a search matched at once is never told "searching").
  const pending = new Map<string, { v: string; done: () => void }>();
  const settle = (ticket: string, v?: string) => {
    const p = pending.get(ticket);
    if (p && (v === undefined || p.v === v)) {
      pending.delete(ticket);
      p.done();
    }
  };
  cluster.on('match', (d) => {
    const m = d as Omit<Match, 'a' | 'b'> & { a: Stored['s']; b: Stored['s'] };
    onMatch({ ...m, a: fromWire(m.a), b: fromWire(m.b) });
    settle(m.a.ticket);
    settle(m.b.ticket);
  });
  cluster.on('mm:waiting', (d) => {
    const w = d as { ticket?: unknown; v?: unknown } | null;
    if (typeof w?.ticket === 'string' && typeof w.v === 'string') settle(w.ticket, w.v);
  });

  // ---- the leader's side ----
  let matcher: Matcher | undefined;
  const versions = new Map<string, string>();
  let chain: Promise<void> = Promise.resolve();
  const serially = (step: () => Promise<void>) => (chain = chain.then(step).catch(opts.onError));
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let closed = false;
  let blocking: typeof redis | undefined;

  /** A pairing with the versions of its two searches as the matcher saw them. */
  type Pending = { p: Pairing; va: string | undefined; vb: string | undefined };
  const pendingOf = (p: Pairing): Pending => {
    const va = versions.get(p.a.ticket);
    const vb = versions.get(p.b.ticket);
    versions.delete(p.a.ticket);
    versions.delete(p.b.ticket);
    return { p, va, vb };
  };

  /** One pairing through the script: 0 when it became a match, else which side (1 = a, 2 = b) had gone. */
  const tryCommit = async ({ p, va, vb }: Pending): Promise<number> => {
    const { a, b } = p;
    const match = {
      roomId: randomUUID(),
      roomType: a.roomType,
      a: toWire(a),
      b: toWire(b),
      sharedTopics: p.sharedTopics,
      ...(p.exchange ? { exchange: p.exchange } : {}),
    };
    const message = JSON.stringify({ t: 'match', d: match, f: instanceId });
    return (await redis.eval(
      COMMIT,
      3,
      waitKey(a.roomType),
      recentKey(a.userId),
      recentKey(b.userId),
      a.ticket,
      va ?? '-',
      b.ticket,
      vb ?? '-',
      a.userId,
      b.userId,
      recentPartners,
      RECENT_TTL_MS,
      cluster.channel,
      message,
    )) as number;
  };

  /**
   * Turns pairings into matches, all at once (one round trip for a batch, not one per pairing);
   * the side still waiting of a void one goes back into the matcher, which may pair it again.
   */
  const commitAll = async (m: Matcher, pairings: Pairing[]) => {
    let batch = pairings.map(pendingOf);
    while (batch.length > 0) {
      const gone = await Promise.all(batch.map(tryCommit));
      const again: Pending[] = [];
      batch.forEach(({ p, va, vb }, i) => {
        if (gone[i] === 0) return;
        m.forgetPair(p.a.userId, p.b.userId);
        const [survivor, v] = gone[i] === 1 ? [p.b, vb] : [p.a, va];
        if (v === undefined) return;
        versions.set(survivor.ticket, v);
        const next = m.add(survivor, now());
        if (next) again.push(pendingOf(next));
      });
      batch = again;
    }
  };

  const schedule = () => {
    const m = matcher;
    if (!m || closed) return;
    const at = m.nextDeadline();
    if (at === undefined || at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerAt = Infinity;
        void serially(async () => {
          if (matcher !== m) return;
          await commitAll(m, m.advance(now()));
          schedule();
        });
      },
      Math.max(0, Math.ceil(at - now())),
    );
  };

  /** A batch of operations in order; the pairings they make are committed together. */
  const applyAll = async (m: Matcher, ops: string[]) => {
    const pairings = m.advance(now());
    const added: Array<[string, string]> = [];
    for (const op of ops) {
      if (op[0] === 'c') {
        const ticket = op.slice(1);
        m.remove(ticket);
        versions.delete(ticket);
        continue;
      }
      const stored = JSON.parse(op.slice(1)) as Stored;
      versions.set(stored.s.ticket, stored.v);
      const p = m.add(fromWire(stored.s), now());
      if (p) pairings.push(p);
      added.push([stored.s.ticket, stored.v]);
    }
    await commitAll(m, pairings);
    // Waiting (or its match was void): its process learns so.
    for (const [ticket, v] of added) if (m.isWaiting(ticket) && versions.get(ticket) === v) cluster.publish('mm:waiting', { ticket, v });
  };

  /**
   * Pops the operations while this term lasts, on a connection of its own: closed when the term
   * ends, so a blocked pop of an old term cannot take an operation from the next leader. One it
   * had already taken is put back at the head of the list.
   */
  const pump = async (m: Matcher, conn: typeof redis) => {
    try {
      while (matcher === m && !closed) {
        const first = await conn.blpop(opsKey, 0.5);
        if (!first) continue;
        const ops = [first[1], ...((await conn.lpop(opsKey, 255)) ?? [])];
        await serially(async () => {
          if (matcher !== m) {
            await redis.lpush(opsKey, ...ops.reverse());
            return;
          }
          await applyAll(m, ops);
          schedule();
        });
      }
    } finally {
      conn.disconnect();
    }
  };

  /** This process won the lease: a Matcher rebuilt from the searches in Redis, oldest first. */
  const lead = async () => {
    const m = new Matcher(opts);
    versions.clear();
    const stored: Stored[] = [];
    for (const room of ROOM_TYPES)
      for (const raw of Object.values(await redis.hgetall(waitKey(room)))) stored.push(JSON.parse(raw) as Stored);
    stored.sort((x, y) => x.at - y.at);
    const users = [...new Set(stored.map((x) => x.s.userId))];
    const pipe = redis.pipeline();
    for (const u of users) pipe.lrange(recentKey(u), 0, recentPartners - 1);
    const lists = (await pipe.exec()) ?? [];
    const t0 = now();
    users.forEach((u, i) => m.restoreRecent(u, (lists[i]?.[1] as string[] | undefined) ?? [], t0));
    matcher = m;
    await serially(async () => {
      const pairings: Pairing[] = [];
      for (const x of stored) {
        const at = t0 - Math.max(0, Date.now() - x.at);
        pairings.push(...m.advance(at));
        versions.set(x.s.ticket, x.v);
        const p = m.add(fromWire(x.s), at);
        if (p) pairings.push(p);
      }
      await commitAll(m, pairings);
      schedule();
    });
    blocking = redis.duplicate();
    void pump(m, blocking).catch((err: unknown) => {
      // A pop cut off by the end of the term is expected.
      if (matcher === m) opts.onError(err);
    });
  };

  const stepDown = () => {
    matcher = undefined;
    blocking?.disconnect();
    blocking = undefined;
    clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
  };

  /**
   * Housekeeping, off the path of joins: a search in the hash that the matcher does not hold (its
   * operation lost with a connection) is taken in. The counts are compared first, O(1).
   */
  const reconcile = async (m: Matcher) => {
    for (const room of ROOM_TYPES) {
      if ((await redis.hlen(waitKey(room))) === m.waitingIn(room)) continue;
      const all = await redis.hgetall(waitKey(room));
      await serially(async () => {
        if (matcher !== m) return;
        const pairings: Pairing[] = [];
        for (const [ticket, raw] of Object.entries(all)) {
          if (m.isWaiting(ticket)) continue;
          const x = JSON.parse(raw) as Stored;
          versions.set(ticket, x.v);
          const p = m.add(fromWire(x.s), now());
          if (p) pairings.push(p);
        }
        await commitAll(m, pairings);
        schedule();
      });
    }
  };

  let ticks = 0;
  const campaign = async () => {
    if (closed) return;
    if (matcher) {
      if ((await redis.eval(RENEW, 1, leaderKey, instanceId, leaseMs)) === 0) stepDown();
      else if (++ticks % RECONCILE_EVERY === 0) await reconcile(matcher);
    } else if ((await redis.set(leaderKey, instanceId, 'PX', leaseMs, 'NX')) === 'OK') await lead();
  };
  await campaign();
  const lease = setInterval(() => void campaign().catch(opts.onError), Math.max(100, Math.floor(leaseMs / 3)));
  lease.unref();

  return {
    async enqueue(seeker) {
      if (closed) return;
      const record: Stored = { v: randomUUID(), at: Date.now(), s: toWire(seeker) };
      const raw = JSON.stringify(record);
      const taken = new Promise<void>((done) => {
        settle(seeker.ticket);
        pending.set(seeker.ticket, { v: record.v, done });
        // Without a leader for a moment (fail-over), the search is in the queue all the same.
        setTimeout(() => settle(seeker.ticket, record.v), TAKEN_WITHIN_MS).unref();
      });
      await redis.multi().hset(waitKey(seeker.roomType), seeker.ticket, raw).rpush(opsKey, `a${raw}`).exec();
      await taken;
    },
    async cancel(ticket) {
      const multi = redis.multi();
      for (const room of ROOM_TYPES) multi.hdel(waitKey(room), ticket);
      multi.rpush(opsKey, `c${ticket}`);
      const results = (await multi.exec()) ?? [];
      return results.slice(0, ROOM_TYPES.length).some(([, n]) => n === 1);
    },
    async waitingCount(roomType) {
      if (roomType) return redis.hlen(waitKey(roomType));
      let n = 0;
      for (const room of ROOM_TYPES) n += await redis.hlen(waitKey(room));
      return n;
    },
    async close() {
      closed = true;
      for (const ticket of [...pending.keys()]) settle(ticket);
      clearInterval(lease);
      const wasLeader = matcher !== undefined;
      stepDown();
      await chain;
      // Another process takes over at once rather than after the lease expires.
      if (wasLeader) await redis.eval(RELEASE, 1, leaderKey, instanceId).catch(opts.onError);
    },
  };
}

/** Each page's last search in Redis for a day (Searches' `lastSearches`), read back through its schema. */
export function lastSearches(cluster: Cluster, onError: (err: unknown) => void) {
  const key = (resumeKey: string) => `${cluster.prefix}search:${resumeKey}`;
  return {
    save(resumeKey: string, search: StartSearch) {
      cluster.redis.set(key(resumeKey), JSON.stringify(search), 'EX', 24 * 60 * 60).catch(onError);
    },
    async load(resumeKey: string) {
      const raw = await cluster.redis.get(key(resumeKey));
      const parsed = raw === null ? undefined : startSearchSchema.safeParse(JSON.parse(raw));
      return parsed?.success ? parsed.data : undefined;
    },
  };
}
