/**
 * `npm run bench:chat`: realtime presence, matchmaking and text chat under load.
 *
 * Starts the real server (embedded default: one process, PGlite, fresh DATA_DIR) as a child
 * process per scenario, drives simulated users over real socket.io connections from several client
 * processes (bench/lib/chatWorker.ts), samples the server's RSS and CPU from /proc/<pid> and the
 * whole machine's CPU, steal included, from /proc/stat (bench/lib/machineCpu.ts), writes
 * bench/results/chat.json and prints one summary line per scenario.
 *
 * Options (flag or env, e.g. BENCH_USERS): --scenarios=complexity,steady,burst,capacity  --users=2000  --rate=200
 *   --chat-seconds=20  --warmup-seconds=3  --skip-share=0.25  --burst-users=2000  --capacity-users=2000
 *   --capacity-rates=1000,2000,3000,3500,4000,5000,6000 (matches/s)  --capacity-seconds=5
 *   --workers=3  --client=lean|socket.io  --topic-share=0.3  --gender-filter-share=0.2
 *   --age-filter-share=0.2  --language-share=0 (profiles list their languages: a shared one is preferred)
 *   --country-share=0 (require a country, mostly their own)  --compare-filters=false (steady and burst
 *   with --language-share/--country-share, 0.6/0.1 unless given, and without: same people, same seed;
 *   --compare-rounds=2 runs with, without, without, with)
 *   --seed=42  --out=chat (bench/results/<out>.json)  --reference=true|false
 *   --db=pglite|postgres  --database-url=postgres://postgres@127.0.0.1:5432/postgres
 * Tokens are signed with the JWT_SECRET the bench gives the server (it owns that server).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { accessTokens } from '../api/src/auth/tokens.ts';
import { population, type BenchUser } from './lib/population.ts';
import { calibrate } from './lib/calibrate.ts';
import { machineCpu, type MachineCpu } from './lib/machineCpu.ts';
import { option } from './lib/options.ts';
import { envNodeFlags, startBenchServer, startReferenceChatServer } from './lib/server.ts';
import { profileParams, templateWithUsers, UPDATE_PROFILES } from './lib/seedUsers.ts';
import { freshDatabase } from './lib/storedRoomsLoad.ts';
import { accountParams, INSERT_ACCOUNTS } from '../api/src/testing/accounts.ts';
import pg from 'pg';
import { sharedNow, summarize } from './lib/stats.ts';
import type { MatchRecord, WorkerUser } from './lib/chatWorker.ts';
import { Matcher, type Seeker } from '../api/src/matchmaking/matcher.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const num = (name: string, fallback: number) => Number(option(name, String(fallback)));

const opts = {
  scenarios: option('scenarios', 'complexity,steady,burst,capacity').split(','),
  users: num('users', 2000),
  rate: num('rate', 200),
  chatSeconds: num('chat-seconds', 20),
  /**
   * Seconds of chat before the measured ones, reported apart (`steady.warmup`). The load
   * generator's client processes start their chat traffic cold, and on two shared cores that slows
   * everything: round trips of p50 150–260 ms for about 2 s. A server first warmed by other
   * clients showed the same; warm clients with half of the rooms still cold did not. 0 measures
   * from the first message.
   */
  warmupSeconds: num('warmup-seconds', 3),
  skipShare: num('skip-share', 0.25),
  burstUsers: num('burst-users', 2000),
  capacityUsers: num('capacity-users', 2000),
  capacityRates: option('capacity-rates', '1000,2000,3000,3500,4000,5000,6000').split(',').map(Number),
  capacitySeconds: num('capacity-seconds', 5),
  workers: num('workers', 3),
  /** lean: bench/lib/leanSocket.ts (same protocol, less client CPU); socket.io: the official client. */
  client: option('client', 'lean') as 'lean' | 'socket.io',
  topicShare: num('topic-share', 0.3),
  genderFilterShare: num('gender-filter-share', 0.2),
  ageFilterShare: num('age-filter-share', 0.2),
  languageShare: num('language-share', 0),
  countryShare: num('country-share', 0),
  /**
   * Steady and burst with the language and country shares, then again without them (the same
   * people, countries and seed), and how far time to match and match latency moved.
   */
  compareFilters: option('compare-filters', 'false') === 'true',
  /** 2: with, without, without, with (the default); 1: with, then without. */
  compareRounds: num('compare-rounds', 2),
  seed: num('seed', 42),
  /** Result file name under bench/results (without .json). */
  out: option('out', 'chat'),
  /** Runs the steady scenario again on the plain socket.io reference (bench/lib/referenceChatServer.mjs); --reference=false skips it. */
  reference: option('reference', 'true') !== 'false',
  /** pglite: the embedded default; postgres: DATABASE_URL's server (a fresh database per scenario). */
  db: option('db', 'pglite') as 'pglite' | 'postgres',
  databaseUrl: option('database-url', process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'),
};

type Report = {
  connectMs: number[];
  ttm: number[];
  matches: MatchRecord[];
  rtt: number[];
  rttAt: number[];
  counters: Record<string, number>;
  errorCodes: Record<string, number>;
  pendingReplies: number;
  /** Event-loop delay of the client process (merged: the worst one) over the phase, ms. */
  loopDelayMs: { p99: number; max: number };
  /** Users still searching when the report was taken. */
  waitingUserIds: string[];
};

class Worker {
  private readonly child: ChildProcess;
  private waiting: Array<(m: Record<string, unknown>) => void> = [];
  constructor() {
    this.child = fork(path.join(repoRoot, 'bench/lib/chatWorker.ts'), [], {
      // Extra Node flags for the client processes, for experiments (BENCH_CLIENT_NODE_FLAGS).
      execArgv: ['--import', 'tsx', ...envNodeFlags('BENCH_CLIENT_NODE_FLAGS')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (m: Record<string, unknown>) => this.waiting.shift()?.(m));
  }
  ask<T = Record<string, unknown>>(cmd: Record<string, unknown>): Promise<T> {
    return new Promise((resolve) => {
      this.waiting.push(resolve as (m: Record<string, unknown>) => void);
      this.child.send(cmd);
    });
  }
  close() {
    this.child.send({ type: 'close' });
  }
  /** CPU seconds this client process has used so far (utime + stime). */
  cpuSeconds(): number {
    try {
      const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      return NaN;
    }
  }
}

/** The clients' CPU use from now until the returned function is called, as % of one core in total. */
function clientCpu(workers: Worker[]) {
  const t0 = performance.now();
  const c0 = workers.reduce((n, w) => n + w.cpuSeconds(), 0);
  return () => Math.round(((workers.reduce((n, w) => n + w.cpuSeconds(), 0) - c0) / ((performance.now() - t0) / 1000)) * 100);
}

let template: string | undefined;
let databases = 0;
const idleRss: Array<{ rssMb: number; hwmMb: number }> = [];

type BenchServer = Pick<
  Awaited<ReturnType<typeof startBenchServer>>,
  'url' | 'status' | 'startSampling' | 'stopSampling' | 'cpuWindow' | 'stop'
>;

/** Runs `run` against a fresh Parley server holding `people`, or against the in-run reference. */
async function withServer<T>(
  people: BenchUser[],
  run: (url: string, users: WorkerUser[], server: BenchServer) => Promise<T>,
  target: 'parley' | 'reference' = 'parley',
) {
  const secret = randomBytes(48).toString('base64url');
  let server: BenchServer;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (target === 'reference') server = await startReferenceChatServer(repoRoot, { JWT_SECRET: secret });
  else if (opts.db === 'postgres') {
    // A fresh database per scenario: the server migrates it, then the accounts go in.
    const db = await freshDatabase(opts.databaseUrl, `parley_bench_chat_${process.pid}_${++databases}`);
    dropDatabase = db.drop;
    server = await startBenchServer(repoRoot, { DATABASE_URL: db.url, JWT_SECRET: secret });
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    const profiles = people.map((p) => p.profile);
    await pool
      .query(INSERT_ACCOUNTS, accountParams(profiles))
      .then(() =>
        pool.query(
          UPDATE_PROFILES,
          profileParams(
            profiles,
            people.map((p) => p.match),
          ),
        ),
      )
      .finally(() => pool.end());
  } else {
    const seeded = await templateWithUsers(
      template!,
      people.map((p) => p.profile),
      people.map((p) => p.match),
    );
    server = await startBenchServer(repoRoot, { JWT_SECRET: secret }, seeded).finally(() => rm(seeded, { recursive: true, force: true }));
  }
  await sleep(1000);
  if (target === 'parley') idleRss.push(await server.status());
  const tokens = accessTokens(new TextEncoder().encode(secret));
  const sign = async (u: BenchUser): Promise<WorkerUser> => ({
    userId: u.profile.userId,
    username: u.profile.username,
    token: await tokens.sign(u.profile),
    filters: u.filters,
  });
  try {
    return await run(server.url, await Promise.all(people.map(sign)), server);
  } finally {
    await server.stop();
    await dropDatabase?.();
  }
}

async function startWorkers(url: string, users: WorkerUser[], automaticReconnect: boolean) {
  const workers = Array.from({ length: opts.workers }, () => new Worker());
  // Users are dealt round-robin so every worker carries the same share of each phase.
  const shares = workers.map((_, w) => users.filter((_, i) => i % opts.workers === w));
  await Promise.all(workers.map((w, k) => w.ask({ type: 'init', url, client: opts.client, users: shares[k], automaticReconnect })));
  return { workers, shares };
}

async function collect(workers: Worker[]): Promise<Report> {
  const reports = await Promise.all(workers.map((w) => w.ask<Report>({ type: 'report' })));
  const merged: Report = {
    connectMs: [],
    ttm: [],
    matches: [],
    rtt: [],
    rttAt: [],
    counters: {},
    errorCodes: {},
    pendingReplies: 0,
    waitingUserIds: [],
    loopDelayMs: { p99: 0, max: 0 },
  };
  for (const r of reports) {
    merged.connectMs.push(...r.connectMs);
    merged.ttm.push(...r.ttm);
    merged.matches.push(...r.matches);
    merged.rtt.push(...r.rtt);
    merged.rttAt.push(...r.rttAt);
    merged.pendingReplies += r.pendingReplies;
    merged.waitingUserIds.push(...r.waitingUserIds);
    merged.loopDelayMs = {
      p99: Math.max(merged.loopDelayMs.p99, Math.round(r.loopDelayMs.p99 * 10) / 10),
      max: Math.max(merged.loopDelayMs.max, Math.round(r.loopDelayMs.max * 10) / 10),
    };
    for (const [k, v] of Object.entries(r.counters)) merged.counters[k] = (merged.counters[k] ?? 0) + v;
    for (const [k, v] of Object.entries(r.errorCodes)) merged.errorCodes[k] = (merged.errorCodes[k] ?? 0) + v;
  }
  return merged;
}

/**
 * Round trips grouped by the second (of the chat phase) in which they began: where the slow ones
 * cluster in time, e.g. around a garbage collection on the server.
 */
function bySecond(at: number[], ms: number[]) {
  if (at.length === 0) return { from: null, seconds: [] };
  const start = at.reduce((a, b) => Math.min(a, b), Infinity);
  const seconds: number[][] = [];
  at.forEach((t, i) => (seconds[Math.floor((t - start) / 1000)] ??= []).push(ms[i]!));
  return {
    /** When the first round trip began (to line up with a server-side trace). */
    from: new Date(start).toISOString(),
    seconds: [...seconds].map((s = [], i) => {
      const { n, p50, p99, max } = summarize(s);
      return { second: i, n, p50, p99, max, over10ms: s.filter((x) => x > 10).length };
    }),
  };
}

/**
 * Match records grouped by room, and the rooms where a side waited for the topic fallback (3 s by
 * design: shared topics first) set apart: only the others' waits are the server's.
 */
function splitByFallback(records: MatchRecord[]) {
  const rooms = new Map<string, MatchRecord[]>();
  for (const r of records) rooms.set(r.roomId, [...(rooms.get(r.roomId) ?? []), r]);
  const others = [...rooms.values()].filter((sides) => !sides.some((s) => s.fallback));
  return { rooms: rooms.size, fallbackRooms: rooms.size - others.length, others };
}

/**
 * Splits time to match by room: rooms where a side waited for the topic fallback versus the rest.
 * In the rest, the side whose start came later made the match, so its start → matched is the
 * server's matching latency as a client sees it.
 */
function byRoom(records: MatchRecord[]) {
  const { rooms, fallbackRooms, others } = splitByFallback(records);
  const latency: number[] = [];
  for (const sides of others) {
    if (sides.length === 2) {
      const [x, y] = sides as [MatchRecord, MatchRecord];
      latency.push((x.startAbs >= y.startAbs ? x : y).ttm);
    }
  }
  return {
    rooms,
    fallbackRooms,
    timeToMatchWithoutTopicFallbackMs: summarize(others.flat().map((s) => s.ttm)),
    matchLatencyMs: summarize(latency),
  };
}

/** The skip phase's re-matches (not the join's leftovers matched meanwhile): all, and split as byRoom() splits first matches. */
function rematchesOf(records: MatchRecord[]) {
  const { fallbackRooms, others } = splitByFallback(records);
  const ttm = (sides: MatchRecord[]) => sides.filter((s) => s.rematch).map((s) => s.ttm);
  return { all: ttm(records), fallbackRooms, withoutFallback: ttm(others.flat()) };
}

/** A simulated person as the matcher sees their search (ticket = user id). */
function seekerOf(p: BenchUser): Seeker {
  return {
    ticket: p.profile.userId,
    userId: p.profile.userId,
    roomType: 'textChat',
    gender: p.profile.gender,
    age: p.profile.age,
    filters: p.filters,
    blocked: new Set(),
    speaks: p.match.speaks,
    learning: p.match.learning,
    country: p.match.country,
    requireCountries: p.filters.countries ?? [],
  };
}

/**
 * Users left waiting who could still have met each other: the leftovers go through a fresh
 * matcher with the server's rules (topic windows over); each pair it forms is two stranded users.
 * Zero means whoever is left has no compatible partner among those left.
 */
function stranded(waitingIds: string[], people: BenchUser[]): number {
  const byId = new Map(people.map((p) => [p.profile.userId, p]));
  const m = new Matcher();
  let pairs = 0;
  for (const id of waitingIds) {
    if (m.add(seekerOf(byId.get(id)!), 60_000)) pairs++;
  }
  pairs += m.advance(120_000).length;
  return pairs * 2;
}

/** What a chat phase's messages came to: counts, and round trips overall and by second. */
function chatFigures(r: Report) {
  const sent = r.counters.sent ?? 0;
  const replied = r.counters.replied ?? 0;
  return {
    messages: {
      sent,
      replied,
      lost: sent - replied,
      ackErrors: r.counters.ackErrors ?? 0,
      errorCodes: r.errorCodes,
    },
    roundTripMs: summarize(r.rtt),
    roundTripBySecond: bySecond(r.rttAt, r.rtt),
  };
}

/** "steal 12.5%, " for a summary line: the CPU the hypervisor took from this VM meanwhile. */
const stolen = (cpu: MachineCpu | undefined) => (cpu ? `steal ${cpu.stealPct}%, ` : '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The language and country shares of the people made next (compare mode runs with and without them). */
let filterShares = { languageShare: opts.languageShare, countryShare: opts.countryShare };
const populationOf = (n: number, seed: number) =>
  population(n, {
    topicShare: opts.topicShare,
    genderFilterShare: opts.genderFilterShare,
    ageFilterShare: opts.ageFilterShare,
    ...filterShares,
    seed,
  });

async function steady(target: 'parley' | 'reference' = 'parley') {
  return withServer(
    populationOf(opts.users, opts.seed),
    async (url, users, server) => {
      const { workers, shares } = await startWorkers(url, users, true);
      server.startSampling();
      const clients = clientCpu(workers);
      const machine = machineCpu();
      const t0 = sharedNow() + 500;
      const gap = 1000 / opts.rate;
      // Global order i joins at t0 + i·gap; worker w holds users w, w+W, …
      await Promise.all(workers.map((w, k) => w.ask({ type: 'join', at: shares[k]!.map((_, j) => t0 + (j * opts.workers + k) * gap) })));
      await sleep(3500); // let topic fallbacks (3 s) finish
      const join = await collect(workers);
      // The same chat for a few seconds first, measured apart: the clients' cold start (see
      // warmupSeconds above).
      let warmup: Report | undefined;
      if (opts.warmupSeconds > 0) {
        await Promise.all(workers.map((w) => w.ask({ type: 'chat', seconds: opts.warmupSeconds, graceMs: 3000 })));
        warmup = await collect(workers);
      }
      const machineInChat = machineCpu();
      const serverInChat = await server.cpuWindow();
      const chatDone = await Promise.all(
        workers.map((w) => w.ask<{ inRoom: number }>({ type: 'chat', seconds: opts.chatSeconds, graceMs: 3000 })),
      );
      const serverCpuDuringChat = await serverInChat();
      const chat = await collect(workers);
      const machineCpuDuringChat = machineInChat();
      const skipDone = await Promise.all(
        workers.map((w) => w.ask<{ skipped: number; stillSearching: number }>({ type: 'skip', share: opts.skipShare, waitMs: 5000 })),
      );
      const skip = await collect(workers);
      const rematches = rematchesOf(skip.matches);
      const res = server.stopSampling();
      const clientCpuPct = clients();
      const machineCpuPct = machine();
      for (const w of workers) w.close();
      const matchedUsers = join.ttm.length;
      const skipped = skipDone.reduce((n, d) => n + d.skipped, 0);
      const result = {
        users: opts.users,
        joinRatePerS: opts.rate,
        connected: join.connectMs.length,
        connectErrors: join.counters.connectErrors ?? 0,
        connectMs: summarize(join.connectMs),
        // Every user gets the count and a first page on connect, then the coalesced changes of what it holds.
        presence: {
          onlineListOnConnect: join.counters.onlineLists ?? 0,
          firstPageBytes: join.counters.firstPageBytes ?? 0,
          deltaBytesDuringJoin: join.counters.deltaBytes ?? 0,
          bytesPerNewcomer: Math.round(
            ((join.counters.firstPageBytes ?? 0) + (join.counters.deltaBytes ?? 0)) / Math.max(1, join.connectMs.length),
          ),
          deltaEventsReceived:
            (join.counters.presenceDeltas ?? 0) + (chat.counters.presenceDeltas ?? 0) + (skip.counters.presenceDeltas ?? 0),
        },
        matchedUsers,
        timeToMatchMs: summarize(join.ttm),
        ...byRoom(join.matches),
        clientLoopDelayDuringJoinMs: join.loopDelayMs,
        usersInRoomsWhenChatStarted: chatDone.reduce((n, d) => n + d.inRoom, 0),
        ...chatFigures(chat),
        clientLoopDelayDuringChatMs: chat.loopDelayMs,
        ...(warmup && { warmup: { seconds: opts.warmupSeconds, ...chatFigures(warmup) } }),
        machineCpuDuringChat,
        skip: {
          pairsSkipped: skipped,
          rematched: rematches.all.length,
          of: skipped * 2,
          stillSearchingAfter5s: skipDone.reduce((n, d) => n + d.stillSearching, 0),
          joinLeftoversMatchedMeanwhile: skip.counters.lateMatches ?? 0,
          rematchMs: summarize(rematches.all),
          rematchFallbackRooms: rematches.fallbackRooms,
          rematchWithoutTopicFallbackMs: summarize(rematches.withoutFallback),
          errors: skip.errorCodes,
        },
        // The goal's figure: the chat phase alone (the scenario's average also covers joins and skips).
        server: { ...res, chatCpuPct: serverCpuDuringChat },
        clientWorkersCpuPct: clientCpuPct,
        machineCpu: machineCpuPct,
        machineLoadAvg: os.loadavg(),
      };
      console.log(
        `${target === 'reference' ? 'steady, reference (plain socket.io)' : 'steady'}: ${opts.users} users at ${opts.rate}/s — time to match p50 ${result.timeToMatchMs.p50} ms p99 ${result.timeToMatchMs.p99} ms ` +
          `(without topic fallback p99 ${result.timeToMatchWithoutTopicFallbackMs.p99} ms, match latency p99 ${result.matchLatencyMs.p99} ms), ` +
          (result.warmup
            ? `after a ${opts.warmupSeconds} s warm-up (round trip p99 ${result.warmup.roundTripMs.p99} ms, ${result.warmup.messages.lost} of ${result.warmup.messages.sent} lost) `
            : '') +
          `round trip p50 ${result.roundTripMs.p50} ms p99 ${result.roundTripMs.p99} ms, ` +
          `${result.messages.lost} of ${result.messages.sent} messages lost, re-match p99 ${result.skip.rematchMs.p99} ms (${result.skip.rematched}/${result.skip.of}; without topic fallback p50 ${result.skip.rematchWithoutTopicFallbackMs.p50} / p99 ${result.skip.rematchWithoutTopicFallbackMs.p99} ms), ` +
          `peak RSS ${res.peakRssMb} MB, server CPU in the chat ${serverCpuDuringChat}%, over the scenario avg ${res.avgCpuPct}% peak ${res.peakCpuPct}%, client workers ${clientCpuPct}%, ${stolen(machineCpuDuringChat)}load ${os.loadavg()[0]!.toFixed(1)}`,
      );
      return result;
    },
    target,
  );
}

/**
 * Steady and burst with a realistic share of language preferences and country requirements, then
 * the same people without them: time to match and match latency, and their ratios (with / without).
 */
async function compareFilters() {
  const shares = { languageShare: opts.languageShare || 0.6, countryShare: opts.countryShare || 0.1 };
  const run = async (s: typeof filterShares) => {
    filterShares = s;
    console.log(`filters: ${Math.round(s.languageShare * 100)}% list languages, ${Math.round(s.countryShare * 100)}% require a country`);
    return { shares: s, steady: await steady('parley'), burst: await burst() };
  };
  const matcherOnly = {
    withFilters: simulatedMatching(shares),
    without: simulatedMatching({ languageShare: 0, countryShare: 0 }),
  };
  console.log(
    `matcher alone (simulated clock, no machine noise): with ${JSON.stringify(matcherOnly.withFilters)}, without ${JSON.stringify(matcherOnly.without)}`,
  );
  // With, without, without, with: on a shared machine whatever runs first or last is not always the
  // same side, and each side's figures are the mean of its two runs.
  const none = { languageShare: 0, countryShare: 0 };
  const runs = { withFilters: [await run(shares)], without: [await run(none)] };
  if (opts.compareRounds > 1) {
    runs.without.push(await run(none));
    runs.withFilters.push(await run(shares));
  }
  const figures = (r: (typeof runs.withFilters)[number]) => ({
    steadyTimeToMatchP50: r.steady.timeToMatchMs.p50,
    steadyTimeToMatchP99: r.steady.timeToMatchMs.p99,
    steadyMatchLatencyP50: r.steady.matchLatencyMs.p50,
    steadyMatchLatencyP99: r.steady.matchLatencyMs.p99,
    steadyMatchedUsers: r.steady.matchedUsers,
    burstTimeToMatchP50: r.burst.timeToMatchMs.p50,
    burstTimeToMatchP99: r.burst.timeToMatchMs.p99,
    burstMatchLatencyP50: r.burst.matchLatencyMs.p50,
    burstMatchLatencyP99: r.burst.matchLatencyMs.p99,
    burstShareOfMatchableMatchedWithin2s: r.burst.shareOfMatchableMatchedWithin2s,
  });
  const mean = (rs: typeof runs.withFilters) => {
    const fs = rs.map(figures);
    return Object.fromEntries(
      Object.keys(fs[0]!).map((k) => [k, Math.round((fs.reduce((n, f) => n + f[k as keyof typeof f], 0) / fs.length) * 100) / 100]),
    ) as ReturnType<typeof figures>;
  };
  const a = mean(runs.withFilters);
  const b = mean(runs.without);
  const vs = Object.fromEntries(Object.keys(a).map((k) => [k, ratio(a[k as keyof typeof a], b[k as keyof typeof b])]));
  console.log(
    `filters vs none (ratios, 1.10 = 10% slower): ${Object.entries(vs)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  return { matcherOnly, ...runs, summary: { withFilters: a, without: b, withOverWithout: vs } };
}

/**
 * The steady population joining the matcher alone at --rate on a simulated clock (the server's
 * rules, no sockets, no machine): time to match as the rules make it, whatever else the machine
 * runs meanwhile. Topic windows and country requirements are what make people wait.
 */
function simulatedMatching(s: typeof filterShares) {
  const people = population(opts.users, {
    topicShare: opts.topicShare,
    genderFilterShare: opts.genderFilterShare,
    ageFilterShare: opts.ageFilterShare,
    ...s,
    seed: opts.seed,
  });
  const m = new Matcher();
  const since = new Map<string, number>();
  const ttm: number[] = [];
  const took = (p: { a: Seeker; b: Seeker } | null, t: number) => {
    if (p) for (const x of [p.a, p.b]) ttm.push(t - since.get(x.ticket)!);
  };
  const gap = 1000 / opts.rate;
  let now = 0;
  for (const p of people) {
    for (const x of m.advance(now)) took(x, now);
    const seeker = seekerOf(p);
    since.set(seeker.ticket, now);
    took(m.add(seeker, now), now);
    now += gap;
  }
  for (let t = now; t <= now + 10_000; t += gap) for (const x of m.advance(t)) took(x, t);
  return { matchedUsers: ttm.length, leftWaiting: m.waiting().length, timeToMatchMs: summarize(ttm) };
}

/** Parley's figure over the reference's, for the goals stated as ratios. */
const ratio = (ours: number, ref: number) => (ref > 0 ? Math.round((ours / ref) * 100) / 100 : null);

/** The steady scenario on Parley, then the same on the in-run reference, and their ratios. */
async function steadyWithReference() {
  const ours = await steady('parley');
  if (!opts.reference) return ours;
  const reference = await steady('reference');
  const vs = {
    chatPhaseCpu: ratio(ours.server.chatCpuPct, reference.server.chatCpuPct),
    scenarioCpu: ratio(ours.server.avgCpuPct, reference.server.avgCpuPct),
    peakRss: ratio(ours.server.peakRssMb, reference.server.peakRssMb),
    connectP99: ratio(ours.connectMs.p99, reference.connectMs.p99),
    roundTripP99: ratio(ours.roundTripMs.p99, reference.roundTripMs.p99),
    rematchP50: ratio(ours.skip.rematchMs.p50, reference.skip.rematchMs.p50),
    rematchP99: ratio(ours.skip.rematchMs.p99, reference.skip.rematchMs.p99),
    rematchWithoutTopicFallbackP99: ratio(ours.skip.rematchWithoutTopicFallbackMs.p99, reference.skip.rematchWithoutTopicFallbackMs.p99),
  };
  console.log(
    `steady vs reference: server CPU in the chat ${vs.chatPhaseCpu}× (${ours.server.chatCpuPct} against ${reference.server.chatCpuPct} %; whole scenario ${vs.scenarioCpu}×), peak RSS ${vs.peakRss}×, connect p99 ${vs.connectP99}×, round trip p99 ${vs.roundTripP99}×, re-match p50 ${vs.rematchP50}× p99 ${vs.rematchP99}×`,
  );
  return { ...ours, reference, ratioToReference: vs };
}

async function burst() {
  const people = populationOf(opts.burstUsers, opts.seed + 1);
  return withServer(people, async (url, users, server) => {
    const { workers } = await startWorkers(url, users, false);
    await Promise.all(workers.map((w) => w.ask({ type: 'connectAll', rate: 400 / opts.workers })));
    await sleep(3000); // let the presence snapshots of the connection phase drain
    const connectErrors = (await collect(workers)).counters.connectErrors ?? 0;
    server.startSampling(100);
    const clients = clientCpu(workers);
    const machine = machineCpu();
    const at = sharedNow() + 300;
    await Promise.all(workers.map((w) => w.ask({ type: 'burst', at })));
    await sleep(4000);
    const r = await collect(workers);
    const res = server.stopSampling();
    const clientCpuPct = clients();
    const machineCpuPct = machine();
    for (const w of workers) w.close();
    const within2s = r.ttm.filter((t) => t <= 2000).length;
    // Who could have been matched at all: those left waiting with no compatible partner among the
    // others left are not the server's to match.
    const strandedUsers = stranded(r.waitingUserIds, people);
    const matchable = opts.burstUsers - (r.waitingUserIds.length - strandedUsers);
    const result = {
      users: opts.burstUsers,
      matched: r.ttm.length,
      matchedWithin2s: within2s,
      shareMatchedWithin2s: Math.round((within2s / opts.burstUsers) * 10_000) / 100,
      leftWaiting: r.waitingUserIds.length,
      leftWaitingWithACompatiblePartnerAlsoLeft: strandedUsers,
      matchableUsers: matchable,
      shareOfMatchableMatchedWithin2s: Math.round((within2s / matchable) * 10_000) / 100,
      timeToMatchMs: summarize(r.ttm),
      ...byRoom(r.matches),
      errors: r.errorCodes,
      connectErrors: connectErrors,
      server: res,
      clientWorkersCpuPct: clientCpuPct,
      machineCpu: machineCpuPct,
      machineLoadAvg: os.loadavg(),
    };
    console.log(
      `burst: ${opts.burstUsers} users at once — ${result.shareMatchedWithin2s}% matched within 2 s (${within2s}; ${r.ttm.length} matched within 4 s; ` +
        `${result.shareOfMatchableMatchedWithin2s}% of the ${matchable} who had a compatible partner; ${strandedUsers} stranded), ` +
        `time to match p50 ${result.timeToMatchMs.p50} ms p99 ${result.timeToMatchMs.p99} ms, peak RSS ${res.peakRssMb} MB, server CPU peak ${res.peakCpuPct}%, client workers ${clientCpuPct}%, ${connectErrors} connect errors, ${stolen(machineCpuPct)}load ${os.loadavg()[0]!.toFixed(1)}`,
    );
    return result;
  });
}

async function capacity() {
  return withServer(populationOf(opts.capacityUsers, opts.seed + 2), async (url, users, server) => {
    const { workers } = await startWorkers(url, users, false);
    await Promise.all(workers.map((w) => w.ask({ type: 'connectAll', rate: 400 / opts.workers })));
    await sleep(3000);
    const connectErrors = (await collect(workers)).counters.connectErrors ?? 0;
    const steps = [];
    // The highest offered rate the server kept up with (≥ 95% achieved) with p99 under 100 ms.
    let best = { offered: 0, achieved: 0, p99: NaN };
    for (const matchesPerS of opts.capacityRates) {
      server.startSampling(250);
      const clients = clientCpu(workers);
      const machine = machineCpu();
      const startsPerWorker = (matchesPerS * 2) / opts.workers;
      const done = await Promise.all(
        workers.map((w) =>
          w.ask<{ issued: number; starved: number; unmatched: number }>({
            type: 'capacityStep',
            rate: startsPerWorker,
            seconds: opts.capacitySeconds,
          }),
        ),
      );
      const r = await collect(workers);
      const res = server.stopSampling();
      const clientCpuPct = clients();
      const machineCpuPct = machine();
      const matched = r.ttm.length / 2;
      const achieved = Math.round(matched / opts.capacitySeconds);
      const ttm = summarize(r.ttm);
      const issued = done.reduce((n, d) => n + d.issued, 0);
      const starved = done.reduce((n, d) => n + d.starved, 0);
      const unmatched = done.reduce((n, d) => n + d.unmatched, 0);
      // Sustained: p99 under 100 ms and at least 95% of the offered matches happened.
      const sustained = ttm.p99 < 100 && achieved >= 0.95 * matchesPerS;
      steps.push({
        offeredMatchesPerS: matchesPerS,
        achievedMatchesPerS: achieved,
        issuedStarts: issued,
        starved,
        unmatched,
        timeToMatchMs: ttm,
        ...byRoom(r.matches),
        sustained,
        errors: r.errorCodes,
        server: res,
        clientWorkersCpuPct: clientCpuPct,
        machineCpu: machineCpuPct,
        machineLoadAvg: os.loadavg(),
      });
      console.log(
        `  capacity step ${matchesPerS} matches/s offered: ${achieved}/s achieved, time to match p99 ${ttm.p99} ms, server CPU avg ${res.avgCpuPct}%, client workers ${clientCpuPct}%, ${stolen(machineCpuPct)}${sustained ? 'sustained' : 'not sustained'}`,
      );
      if (sustained && matchesPerS > best.offered) best = { offered: matchesPerS, achieved, p99: ttm.p99 };
      // Time to match includes waiting for a compatible stranger, which shrinks as the rate grows:
      // a step over 100 ms at a low rate says little about the next. Only overload ends the climb.
      if (achieved < 0.95 * matchesPerS) break;
    }
    for (const w of workers) w.close();
    const setup = `${opts.capacityUsers} connected users, ${opts.capacitySeconds} s steps`;
    console.log(
      best.offered
        ? `capacity: ${best.offered} matches/s offered and sustained (${best.achieved}/s achieved, time to match p99 ${best.p99} ms < 100 ms; ${setup})`
        : `capacity: no step sustained with time to match p99 < 100 ms (${setup})`,
    );
    return {
      users: opts.capacityUsers,
      connectErrors,
      stepSeconds: opts.capacitySeconds,
      bestSustainedOfferedMatchesPerS: best.offered,
      achievedAtBestMatchesPerS: best.achieved,
      steps,
    };
  });
}

/**
 * The matcher alone, in this process: time per join that matches at once, and per join that waits
 * then leaves, with N users already waiting. Flat across N shows the cost does not grow with the queue.
 */
function complexity() {
  const sizes = [100, 1_000, 10_000, 100_000];
  const rows = [];
  let n = 0;
  const topicPool = Array.from({ length: 500 }, (_, i) => `topic${i}`);
  // Men of every age who want women (and accept age 30), with and without topics; women of 30 who want men.
  const seeker = (gender: 'male' | 'female', want: 'male' | 'female', withTopics = true): Seeker => {
    n++;
    const age = gender === 'female' ? 30 : 18 + (n % 60);
    const narrow = { minAge: Math.max(18, Math.min(age, 30) - 5), maxAge: Math.max(age, 30) + 5 };
    return {
      ticket: `t${n}`,
      userId: `u${n}`,
      roomType: 'textChat',
      gender,
      age,
      blocked: new Set(),
      filters: {
        topics: withTopics && gender === 'male' && n % 3 === 0 ? [topicPool[n % 500]!, topicPool[(n * 7) % 500]!] : [],
        gender: want,
        ageRange: gender === 'male' && n % 2 ? narrow : { minAge: 18, maxAge: 99 },
      },
    };
  };
  for (const size of sizes) {
    const m = new Matcher();
    // Men who want women, none of them compatible with each other.
    for (let i = 0; i < size; i++) m.add(seeker('male', 'female'), 0);
    m.advance(5000); // topic windows are over: everyone is in the general index too
    const ops = 20_000;
    let t0 = performance.now();
    for (let i = 0; i < ops; i++) {
      if (!m.add(seeker('female', 'male'), 5000)) throw new Error('expected a match');
      m.add(seeker('male', 'female', false), 5000); // keep the queue at its size
    }
    const matchAndRefillUs = ((performance.now() - t0) * 1000) / ops;
    t0 = performance.now();
    for (let i = 0; i < ops; i++) {
      const s = seeker('male', 'female');
      m.add(s, 5000);
      m.remove(s.ticket);
    }
    const waitAndLeaveUs = ((performance.now() - t0) * 1000) / ops;
    rows.push({
      waiting: size,
      joinThatMatchesPlusRefillUs: Math.round(matchAndRefillUs * 100) / 100,
      joinThatWaitsPlusLeaveUs: Math.round(waitAndLeaveUs * 100) / 100,
    });
  }
  console.log(
    `complexity: µs per (matching join + refill) / (waiting join + leave) at queue sizes ${rows.map((r) => `${r.waiting}: ${r.joinThatMatchesPlusRefillUs}/${r.joinThatWaitsPlusLeaveUs}`).join(', ')}`,
  );
  return rows;
}

async function main() {
  const results: Record<string, unknown> = {};
  const started = new Date().toISOString();
  const load = os.loadavg();
  const calibration = await calibrate();
  console.log(
    `machine now: JSON encode+decode of a packet ${calibration.jsonUs} µs, loopback write to an idle reader ${calibration.writeToIdlePeerUs} µs, to a busy one ${calibration.writeToBusyPeerUs} µs`,
  );
  // The first start of PGlite runs initdb, whose WebAssembly memory never shrinks again; every
  // scenario runs on a fresh copy of that initialised, empty database, as after a restart.
  const first = await startBenchServer(repoRoot, {});
  await sleep(1000);
  const firstStart = await first.status();
  await first.stop(true);
  template = first.dataDir;
  console.log(`server first start on an empty DATA_DIR (initdb): RSS ${firstStart.rssMb} MB, peak ${firstStart.hwmMb} MB`);
  if (opts.compareFilters) results.filters = await compareFilters();
  else
    for (const s of opts.scenarios) {
      if (s === 'steady') results.steady = await steadyWithReference();
      else if (s === 'burst') results.burst = await burst();
      else if (s === 'capacity') results.capacity = await capacity();
      else if (s === 'complexity') results.complexity = complexity();
      else throw new Error(`unknown scenario ${s}`);
    }
  const out = {
    bench: 'chat',
    started,
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model,
      memoryMb: Math.round(os.totalmem() / 2 ** 20),
      loadAvgAtStart: load,
      node: process.version,
      calibration,
    },
    note: 'Server and client workers share this machine; time is measured in the client processes (monotonic clock). Time to match includes waiting for a compatible stranger to arrive; match latency is start → matched of the user whose arrival made the match.',
    options: opts,
    serverFirstStartRss: firstStart,
    serverIdleRssBeforeEachScenario: idleRss,
    ...results,
  };
  await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
  await writeFile(path.join(repoRoot, `bench/results/${path.basename(opts.out)}.json`), JSON.stringify(out, null, 2) + '\n');
  await rm(template, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
