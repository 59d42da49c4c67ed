/**
 * `npm run bench:economy`: missions progress and store purchases against PostgreSQL.
 *
 * 1. Progress: USERS users each send RATE progress events a second for SECONDS seconds (open
 *    loop, at the scheduled times whatever the answers), a tenth of them delivered twice and
 *    through a second service instance (another process's view). Latency is from an event's
 *    scheduled time to the commit that makes its progress visible (a read after it sees it).
 *    Afterwards: every event recorded exactly once, each wallet's XP the sum of its events.
 * 2. Store: PURCHASE_RATE purchases a second for PURCHASE_SECONDS seconds over the same users
 *    (each with a known amount of gold), a twentieth retried with the same idempotency key.
 *    Afterwards: no balance below zero and every balance equal to what was given minus the
 *    prices of what is owned; retries charged once.
 *
 * Needs a PostgreSQL server: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres);
 * a database of its own is created and dropped. Writes bench/results/economy.json.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import { EVENT_REWARDS, type MissionEventKind } from '@parley/contract/missions';
import { openDatabase } from '../api/src/db/client.ts';
import { missionEvents, ownedItems, storeItems, users, wallets } from '../api/src/db/schema.ts';
import { missionService } from '../api/src/missions/service.ts';
import { missionStore } from '../api/src/missions/store.ts';
import { shopService } from '../api/src/shop/service.ts';
import { shopStore } from '../api/src/shop/store.ts';
import { option } from './lib/options.ts';
import { summarize } from './lib/stats.ts';

const self = fileURLToPath(import.meta.url);
const USERS = Number(option('users', '1000'));
const RATE = Number(option('rate', '10'));
const SECONDS = Number(option('seconds', '30'));
const PURCHASE_RATE = Number(option('purchase-rate', '500'));
const PURCHASE_SECONDS = Number(option('purchase-seconds', '20'));
const KINDS: MissionEventKind[] = ['chatAnswered', 'chatMinute', 'dailyVisit'];

async function freshDatabase() {
  const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `parley_bench_economy_${randomUUID().slice(0, 8)}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  const drop = async () => {
    const d = new pg.Client({ connectionString: admin });
    await d.connect();
    await d.query(`drop database if exists ${name} with (force)`);
    await d.end();
  };
  return { url: u.toString(), drop };
}

/**
 * Calls waiting beyond which the load is more than the server can take: the rest are shed, and
 * counted. By default a second of what is offered: a backlog longer than that already misses the
 * goal (progress visible within a second), and a shorter one is a batch being written.
 */
const maxInFlight = (rate: number) => Number(option('max-in-flight', String(rate)));

/**
 * Runs `fire(i)` at i / rate seconds for `seconds`, whatever earlier calls are doing (open loop),
 * except that a call due while maxInFlight(rate) are waiting is shed; resolves when all have answered.
 */
async function openLoop(rate: number, seconds: number, fire: (i: number) => Promise<void>) {
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const pending: Promise<void>[] = [];
  let i = 0;
  let inFlight = 0;
  let shed = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
      for (; i < due; i++) {
        if (inFlight >= maxInFlight(rate)) {
          shed++;
          continue;
        }
        inFlight++;
        pending.push(fire(i).finally(() => inFlight--));
      }
      if (i >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(pending);
  return { total, sent: total - shed, shed, wallSeconds: (performance.now() - start) / 1000 };
}

async function main() {
  const { url, drop } = await freshDatabase();
  // The pool of one API process is 10 connections; two instances stand for two processes.
  const database = await openDatabase({ url, dataDir: 'unused' });
  const db = database.db;
  try {
    const ids = Array.from({ length: USERS }, () => randomUUID());
    for (let k = 0; k < ids.length; k += 500) {
      await db.insert(users).values(ids.slice(k, k + 500).map((id, j) => ({ id, username: `bench${k + j}`, passwordHash: 'x' })));
    }
    const live = new Set(KINDS);
    const a = missionService({ store: missionStore(db), liveSources: live, progressed: () => undefined });
    const second = await openDatabase({ url, dataDir: 'unused' });
    const b = missionService({ store: missionStore(second.db), liveSources: live, progressed: () => undefined });

    // 1. Progress events.
    const latencies: number[] = [];
    const expectedXp = new Map<string, number>();
    let errors = 0;
    let duplicatesCounted = 0;
    const start = performance.now();
    const progress = await openLoop(USERS * RATE, SECONDS, async (i) => {
      const userId = ids[i % USERS]!;
      const kind = KINDS[i % KINDS.length]!;
      const key = `bench-${i}`;
      const scheduled = start + (i / (USERS * RATE)) * 1000;
      expectedXp.set(userId, (expectedXp.get(userId) ?? 0) + EVENT_REWARDS[kind].xp);
      try {
        const twice = i % 10 === 0;
        const [r, again] = await Promise.all([
          a.record(userId, { kind, key }),
          twice ? b.record(userId, { kind, key }) : Promise.resolve({ counted: false }),
        ]);
        latencies.push(performance.now() - scheduled);
        if (r.counted && again.counted) duplicatesCounted++;
        if (!r.counted && !again.counted) errors++;
      } catch {
        errors++;
      }
    });
    const [{ n: recorded }] = (await db
      .select({ n: sql<number>`count(*)::int` })
      .from(missionEvents)
      .where(sql`${missionEvents.key} like 'chat%:bench-%' or ${missionEvents.key} like 'dailyVisit:bench-%'`)) as [{ n: number }];
    const xpRows = await db.select({ userId: wallets.userId, xp: wallets.xp }).from(wallets);
    const wrongXp = xpRows.filter((w) => w.xp !== (expectedXp.get(w.userId) ?? 0)).length;
    const progressResult = {
      users: USERS,
      eventsPerUserPerSecond: RATE,
      seconds: SECONDS,
      offered: progress.total,
      sent: progress.sent,
      shedAsOverload: progress.shed,
      shedBeyondInFlight: maxInFlight(USERS * RATE),
      achievedPerSecond: Math.round(progress.sent / progress.wallSeconds),
      eventToVisibleMs: summarize(latencies),
      lost: progress.sent - recorded,
      doubleCounted: duplicatesCounted + Math.max(0, recorded - progress.sent),
      walletsWithWrongXp: wrongXp,
      errors,
    };
    console.log(
      `economy progress: ${progressResult.offered} events offered at ${USERS * RATE}/s (${progress.shed} shed as overload), achieved ${progressResult.achievedPerSecond}/s — event→visible p50 ${progressResult.eventToVisibleMs.p50} ms p99 ${progressResult.eventToVisibleMs.p99} ms; lost ${progressResult.lost}, double-counted ${progressResult.doubleCounted}, wrong XP ${wrongXp}`,
    );

    // The purchases start on a settled database: the progress phase's writes flushed and its
    // tables analysed, so that what they measure is buying, not the first phase's aftermath.
    // The pool's connections are open, as a running server's are: the batched progress phase
    // writes through one connection per instance, and purchases run ten at a time.
    await db.execute(sql`vacuum analyze wallets, mission_events, user_quests`);
    await db.execute(sql`checkpoint`);
    await Promise.all(Array.from({ length: 10 }, () => db.execute(sql`select pg_sleep(0.05)`)));

    // 2. Purchases: 20 more 10–30 gold items beside the catalogue, gold set to a known amount.
    await db.insert(storeItems).values(
      Array.from({ length: 20 }, (_, k) => ({
        id: `bench-${k}`,
        name: `Bench ${k}`,
        kind: 'flair' as const,
        price: 10 + (k % 3) * 10,
        description: 'bench item',
        imageUrl: '/store/flair-star.svg',
      })),
    );
    const given = 150;
    await db.update(wallets).set({ gold: given });
    const shop = shopService({ store: shopStore(db), emojiChanged: () => undefined, goldChanged: () => undefined });
    const buyLatencies: number[] = [];
    const outcomes = { bought: 0, notEnoughGold: 0, alreadyOwned: 0, retriedCharged: 0, errors: 0 };
    const buyStart = performance.now();
    const purchases = await openLoop(PURCHASE_RATE, PURCHASE_SECONDS, async (i) => {
      const userId = ids[(i * 7919) % USERS]!;
      // Each user buys different items in turn: some they can afford, some not once their gold runs out.
      const itemId = `bench-${Math.floor(i / USERS) % 20}`;
      const idempotencyKey = randomUUID();
      const scheduled = buyStart + (i / PURCHASE_RATE) * 1000;
      const attempt = () =>
        shop.buy(userId, { itemId, idempotencyKey }).then(
          (r) => ({ ok: true as const, gold: r.gold }),
          (e: Error & { code?: string }) => ({ ok: false as const, code: e.code ?? 'error' }),
        );
      const first = await attempt();
      buyLatencies.push(performance.now() - scheduled);
      if (first.ok) outcomes.bought++;
      else if (first.code === 'not_enough_gold') outcomes.notEnoughGold++;
      else if (first.code === 'already_owned') outcomes.alreadyOwned++;
      else outcomes.errors++;
      if (i % 20 === 0) {
        const retry = await attempt();
        if (first.ok !== retry.ok || (first.ok && retry.ok && retry.gold !== first.gold)) outcomes.retriedCharged++;
      }
    });
    const spent = await db
      .select({ userId: ownedItems.userId, spent: sql<number>`sum(${storeItems.price})::int` })
      .from(ownedItems)
      .innerJoin(storeItems, eq(storeItems.id, ownedItems.itemId))
      .groupBy(ownedItems.userId);
    const spentBy = new Map(spent.map((s) => [s.userId, s.spent]));
    const balances = await db.select({ userId: wallets.userId, gold: wallets.gold }).from(wallets);
    const inconsistent = balances.filter((w) => w.gold < 0 || w.gold !== given - (spentBy.get(w.userId) ?? 0)).length;
    const storeResult = {
      offeredPerSecond: PURCHASE_RATE,
      seconds: PURCHASE_SECONDS,
      offered: purchases.total,
      sent: purchases.sent,
      shedAsOverload: purchases.shed,
      achievedPerSecond: Math.round(purchases.sent / purchases.wallSeconds),
      purchaseMs: summarize(buyLatencies),
      ...outcomes,
      inconsistentBalances: inconsistent,
    };
    console.log(
      `economy store: ${storeResult.offered} purchases offered at ${PURCHASE_RATE}/s (${purchases.shed} shed as overload), achieved ${storeResult.achievedPerSecond}/s — p50 ${storeResult.purchaseMs.p50} ms p99 ${storeResult.purchaseMs.p99} ms; bought ${outcomes.bought}, not enough gold ${outcomes.notEnoughGold}, owned already ${outcomes.alreadyOwned}; inconsistent balances ${inconsistent}, retries charged twice ${outcomes.retriedCharged}`,
    );

    const out = path.join(path.dirname(self), 'results', `${option('out', 'economy')}.json`);
    await mkdir(path.dirname(out), { recursive: true });
    const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg() };
    await writeFile(
      out,
      `${JSON.stringify({ bench: 'economy', started: new Date().toISOString(), machine, database: 'postgres', connections: '2 × 10 (two service instances)', progress: progressResult, store: storeResult }, null, 2)}\n`,
    );
    console.log(`wrote ${path.relative(process.cwd(), out)}`);
    await second.close();
  } finally {
    await database.close();
    await drop();
  }
}

await main();
