import { perksOf } from '@parley/contract/billing';
import {
  CALENDAR_DAYS,
  DAILY_QUESTS,
  EVENT_REWARDS,
  LEVEL_UP_GOLD,
  MISSION_ERR,
  WEEKLY_QUESTS,
  type ClaimQuest,
  type MissionEventKind,
  type MissionOverview,
  type MissionSettings,
} from '@parley/contract/missions';
import { DomainError } from '../platform/errors.ts';
import { addDays, drawQuests, isoWeek, levelOf, levelProgress, localDate, reminderDue, shownDays, visit, visitDay } from './rules.ts';
import type { CatalogueRow, MissionStore, Tx } from './store.ts';

/** A progress event as a source reports it: `key` names the occurrence (a room id, a friendship), so a repeat counts once. */
export type ProgressEvent = { kind: MissionEventKind; key: string; amount?: number };
export type Recorded = { counted: boolean; levelUp?: number };

const LABELS: Record<MissionEventKind, string> = {
  chatMinute: 'A chat of a minute or more',
  chatAnswered: 'A chat your partner answered',
  dailyVisit: 'Daily visit',
  friendMade: 'A new friend',
  groupMessageAnswered: 'A reply in a group room',
  liveMinutes: 'Minutes in live streams',
};

export type MissionDeps = {
  store: MissionStore;
  /** Event kinds that have a source on this server: quests of other kinds are never drawn. */
  liveSources: ReadonlySet<MissionEventKind>;
  /** Told after a commit that changed a user's progress (and their new level, if any). */
  progressed(userId: string, levelUp: number | undefined): void;
  /** Whether it is the user's quiet hours (notification settings) at `at`; none when left out. */
  quiet?(userId: string, at: Date): Promise<boolean>;
  now?: () => Date;
};

/** An event waiting to be written with others, and its caller. */
type Waiting = { userId: string; e: ProgressEvent; resolve(r: Recorded): void; reject(err: unknown): void };
/** Events written in one transaction at most. */
const BATCH_MAX = 2000;
/** How long the first event of a batch waits for others; while a batch is being written, the next one gathers anyway. */
const BATCH_WAIT_MS = 10;
/** Users whose quests are drawn in one turn of the event loop, in a batch. */
const DRAWS_PER_TURN = 200;

/** A batch whose locks met another process's in a circle is written again (PostgreSQL rolled it back whole). */
async function retried<T>(work: () => Promise<T>, tries = 3): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await work();
    } catch (err) {
      const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
      if (n >= tries || (code !== '40P01' && code !== '40001')) throw err;
    }
  }
}

const periodsOf = (today: string) => ({ day: `day:${today}`, week: `week:${isoWeek(today)}` });

/**
 * Missions: XP, levels, gold from events the server saw, the daily streak and quests. Every reward
 * is written with its event key in the same transaction, so it is given once however often it is
 * delivered, by however many processes.
 */
export function missionService(deps: MissionDeps) {
  const { store } = deps;
  const now = deps.now ?? (() => new Date());
  let catalogue: Promise<CatalogueRow[]> | undefined;
  // Seeded by a migration, never changed at runtime: read once, inside the caller's transaction
  // (PGlite has one connection, which the open transaction holds).
  const quests = (tx: Tx) => (catalogue ??= store.catalogue(tx));

  /**
   * Periods whose quests a user was given, in this process: the insert is idempotent, so this only
   * saves its round trips. Filled after the commit, so a rolled-back draw is drawn again.
   */
  const drawn = new Set<string>();
  const DRAWN_MAX = 200_000;

  /** The quest rows a user is given for the day and week of `today` (drawn from their seed: the same in every process). */
  function questRows(all: CatalogueRow[], userId: string, today: string) {
    const { day, week } = periodsOf(today);
    return (
      [
        [day, 'daily', DAILY_QUESTS],
        [week, 'weekly', WEEKLY_QUESTS],
      ] as const
    ).flatMap(([period, cadence, count]) =>
      drawQuests(all, { cadence, live: deps.liveSources, seed: `${userId}:${period}`, count }).map((q) => ({
        userId,
        period,
        questId: q.id,
        kind: q.kind,
        target: q.target,
      })),
    );
  }
  const drawnKey = (userId: string, today: string) => {
    const { day, week } = periodsOf(today);
    return `${userId}:${day}:${week}`;
  };
  const markDrawn = (key: string) => {
    if (drawn.size >= DRAWN_MAX) drawn.clear();
    drawn.add(key);
  };

  /** Draws the day's and week's quests for a user (once per period: the rows are keyed by it). */
  async function ensureQuests(tx: Tx, userId: string, today: string, after: Array<() => void>) {
    const key = drawnKey(userId, today);
    if (drawn.has(key)) return;
    await store.assignMany(tx, questRows(await quests(tx), userId, today));
    after.push(() => markDrawn(key));
  }

  /** Levels reached on the way from `from` to `to` give their gold and a row of their own. */
  async function levelUp(tx: Tx, userId: string, from: number, to: number) {
    for (let l = from + 1; l <= to; l++) {
      await store.firstTime(tx, { userId, key: `level:${l}`, kind: 'levelUp', label: `Reached level ${l}`, xp: 0, gold: LEVEL_UP_GOLD });
    }
    await store.credit(tx, userId, 0, LEVEL_UP_GOLD * (to - from));
    await store.setLevel(tx, userId, to);
  }

  /** Credits a reward whose key is new; levels reached on the way give their gold and a row of their own. */
  async function reward(
    tx: Tx,
    userId: string,
    e: { key: string; kind: string; label: string; xp: number; gold: number },
  ): Promise<Recorded & { timeZone?: string }> {
    if (!(await store.firstTime(tx, { userId, ...e }))) return { counted: false };
    const after = await store.credit(tx, userId, e.xp, e.gold);
    const level = levelOf(after.xp);
    if (level <= after.level) return { counted: true, timeZone: after.timeZone };
    await levelUp(tx, userId, after.level, level);
    return { counted: true, levelUp: level, timeZone: after.timeZone };
  }

  /** An event as mission_events keeps it. */
  const eventRow = (userId: string, e: ProgressEvent) => {
    const amount = e.amount ?? 1;
    const base = EVENT_REWARDS[e.kind];
    return {
      userId,
      key: `${e.kind}:${e.key}`,
      kind: e.kind,
      label: LABELS[e.kind],
      xp: base.xp * amount,
      gold: base.gold * amount,
      amount,
    };
  };

  /**
   * Records a batch of events in one transaction: their keys, each user's XP and gold once, their
   * quests drawn and advanced once per kind. A key seen twice (in the batch, or before) counts once.
   */
  async function applyBatch(tx: Tx, batch: Waiting[], after: Array<() => void>) {
    const firsts = new Map<string, { w: Waiting; row: ReturnType<typeof eventRow> }>();
    for (const w of batch) {
      const row = eventRow(w.userId, w.e);
      const id = `${w.userId} ${row.key}`;
      if (!firsts.has(id)) firsts.set(id, { w, row });
    }
    const rows = [...firsts.values()].map((f) => f.row);
    const recorded = new Set(
      (
        await store.firstTimes(
          tx,
          rows.map(({ amount: _, ...r }) => r),
        )
      ).map((r) => `${r.userId} ${r.key}`),
    );
    const counted = new Set<Waiting>();
    const totals = new Map<string, { xp: number; gold: number; kinds: Map<string, number> }>();
    for (const [id, { w, row }] of firsts) {
      if (!recorded.has(id)) continue;
      counted.add(w);
      const t = totals.get(w.userId) ?? { xp: 0, gold: 0, kinds: new Map<string, number>() };
      t.xp += row.xp;
      t.gold += row.gold;
      t.kinds.set(row.kind, (t.kinds.get(row.kind) ?? 0) + row.amount);
      totals.set(w.userId, t);
    }
    const levelUps = new Map<string, number>();
    if (totals.size === 0) return { counted, levelUps };
    const credits = [...totals].map(([userId, t]) => ({ userId, xp: t.xp, gold: t.gold })).sort((a, b) => (a.userId < b.userId ? -1 : 1));
    const wallets = await store.creditMany(tx, credits);
    const all = await quests(tx);
    const assign: Array<ReturnType<typeof questRows>[number]> = [];
    const steps: Array<{ userId: string; day: string; week: string; kind: string; amount: number }> = [];
    const levelRows: Array<Parameters<typeof store.firstTimes>[1][number]> = [];
    const levelled: Array<{ userId: string; gold: number; level: number }> = [];
    const at = now();
    const todayIn = new Map<string, string>();
    let draws = 0;
    for (const w of wallets) {
      const level = levelOf(w.xp);
      if (level > w.level) {
        for (let l = w.level + 1; l <= level; l++)
          levelRows.push({ userId: w.userId, key: `level:${l}`, kind: 'levelUp', label: `Reached level ${l}`, xp: 0, gold: LEVEL_UP_GOLD });
        levelled.push({ userId: w.userId, gold: LEVEL_UP_GOLD * (level - w.level), level });
        levelUps.set(w.userId, level);
      }
      let today = todayIn.get(w.timeZone);
      if (today === undefined) todayIn.set(w.timeZone, (today = localDate(at, w.timeZone)));
      const key = drawnKey(w.userId, today);
      if (!drawn.has(key)) {
        assign.push(...questRows(all, w.userId, today));
        after.push(() => markDrawn(key));
        // A batch of people new today draws a few thousand hashes: the event loop breathes between.
        if (++draws % DRAWS_PER_TURN === 0) await new Promise(setImmediate);
      }
      const { day, week } = periodsOf(today);
      for (const [kind, amount] of totals.get(w.userId)!.kinds) steps.push({ userId: w.userId, day, week, kind, amount });
    }
    if (levelled.length > 0) {
      await store.firstTimes(tx, levelRows);
      await store.levelUpMany(tx, levelled);
    }
    await store.assignMany(tx, assign);
    await store.advanceMany(tx, steps);
    return { counted, levelUps };
  }

  /**
   * Events wait here a moment to be written together: one transaction for all that arrived
   * meanwhile (a chat message or a minute of chat each, from every user), rather than one each.
   */
  let queue: Waiting[] = [];
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** Writes the next batch; the one after it is scheduled once this one is done. */
  const startFlush = () =>
    (flushing = flush().finally(() => {
      flushing = undefined;
      schedule();
    }));
  const schedule = () => {
    if (flushing || timer || queue.length === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      void startFlush();
    }, BATCH_WAIT_MS);
  };
  async function flush() {
    const batch = queue.slice(0, BATCH_MAX);
    queue = queue.slice(batch.length);
    try {
      const { counted, levelUps } = await retried(() => committed((tx, after) => applyBatch(tx, batch, after)));
      const last = new Map<string, Waiting>();
      for (const w of batch) if (counted.has(w)) last.set(w.userId, w);
      for (const w of batch) {
        const up = last.get(w.userId) === w ? levelUps.get(w.userId) : undefined;
        w.resolve(counted.has(w) ? (up === undefined ? { counted: true } : { counted: true, levelUp: up }) : { counted: false });
      }
      for (const [userId] of last) deps.progressed(userId, levelUps.get(userId));
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      // One event that cannot be written (its user deleted meanwhile) must not take the others with it.
      for (const w of batch) {
        await committed((tx, after) => applyEvent(tx, w.userId, w.e, after)).then(
          (r) => w.resolve(told(w.userId, r)),
          (e: unknown) => w.reject(e),
        );
      }
    }
  }

  async function applyEvent(tx: Tx, userId: string, e: ProgressEvent, after: Array<() => void>): Promise<Recorded> {
    const { amount, ...row } = eventRow(userId, e);
    const { timeZone, ...r } = await reward(tx, userId, row);
    if (!r.counted) return r;
    const today = localDate(now(), timeZone ?? 'UTC');
    await ensureQuests(tx, userId, today, after);
    const { day, week } = periodsOf(today);
    await store.advance(tx, userId, [day, week], e.kind, amount);
    return r;
  }

  /** Runs `work` in a transaction, then the steps it left for after the commit. */
  async function committed<T>(work: (tx: Tx, after: Array<() => void>) => Promise<T>): Promise<T> {
    const after: Array<() => void> = [];
    const result = await store.db.transaction((tx) => work(tx, after));
    for (const step of after) step();
    return result;
  }

  function told(userId: string, r: Recorded): Recorded {
    if (r.counted) deps.progressed(userId, r.levelUp);
    return r;
  }

  return {
    /**
     * The one entry point for progress: records an event of a kind for a user, once per key.
     * Sources call it with what they saw (a room that ended, a friendship made), never with what
     * a client claims.
     */
    record(userId: string, e: ProgressEvent): Promise<Recorded> {
      return new Promise<Recorded>((resolve, reject) => {
        queue.push({ userId, e, resolve, reject });
        schedule();
      });
    },

    /** Writes the events still waiting (the process is stopping). */
    async flushed(): Promise<void> {
      for (;;) {
        clearTimeout(timer);
        timer = undefined;
        if (flushing) await flushing;
        else if (queue.length > 0) await startFlush();
        else return;
      }
    },

    /**
     * Gold given from outside missions (a paid premium month), written inside the caller's
     * transaction under its key, so it lands once with the event that earned it. The caller tells
     * `announce` after its commit.
     */
    async grantIn(tx: Tx, userId: string, g: { key: string; kind: string; label: string; gold: number }): Promise<boolean> {
      return (await reward(tx, userId, { ...g, xp: 0 })).counted;
    },

    /** Tells a user's pages that their rewards changed. */
    announce(userId: string): void {
      deps.progressed(userId, undefined);
    },

    /** The day's visit in the user's own time zone: the streak, its freezes, and the daily-visit reward. */
    async visit(userId: string, premiumUser: string, timeZone: string): Promise<Recorded> {
      const r = await committed(async (tx, after) => {
        const wallet = await store.lockWallet(tx, userId);
        // Switching zones cannot count two days in one: see visitDay.
        const { date: today, zone } = visitDay(now(), timeZone, {
          date: wallet.lastVisit,
          zone: wallet.lastVisitZone ?? wallet.timeZone,
        });
        const outcome = visit({ days: wallet.streakDays, lastVisit: wallet.lastVisit, freezes: wallet.freezes }, today, {
          maxFreezes: perksOf(premiumUser).streakFreezes,
          accountStart: localDate(wallet.createdAt, zone),
        });
        await store.saveStreak(tx, userId, {
          timeZone,
          ...(outcome.counted && {
            streakDays: outcome.streak.days,
            lastVisit: today,
            lastVisitZone: zone,
            freezes: outcome.streak.freezes,
          }),
        });
        if (!outcome.counted) return { counted: false };
        await store.markDays(tx, userId, [{ day: today, frozen: false }, ...outcome.frozen.map((day) => ({ day, frozen: true }))]);
        return applyEvent(tx, userId, { kind: 'dailyVisit', key: today }, after);
      });
      return told(userId, r);
    },

    async overview(userId: string, premiumUser: string): Promise<MissionOverview> {
      let wallet = await store.wallet(userId);
      const timeZone = wallet?.timeZone ?? 'UTC';
      const today = localDate(now(), timeZone);
      const { day, week } = periodsOf(today);
      await committed(async (tx, after) => {
        wallet = await store.lockWallet(tx, userId);
        await ensureQuests(tx, userId, today, after);
      });
      const w = wallet!;
      const [rows, days, recent] = await Promise.all([
        store.quests(userId, [day, week]),
        store.days(userId, addDays(today, -CALENDAR_DAYS + 1)),
        store.recentRewards(userId, 10),
      ]);
      const streak = { days: w.streakDays, lastVisit: w.lastVisit, freezes: w.freezes };
      return {
        ...levelProgress(w.xp),
        XP: w.xp,
        gold: w.gold,
        consecutiveDays: shownDays(streak, today),
        parsedDates: days
          .filter((d) => !d.frozen)
          .map((d) => d.day)
          .sort(),
        frozenDates: days
          .filter((d) => d.frozen)
          .map((d) => d.day)
          .sort(),
        freezes: w.freezes,
        maxFreezes: perksOf(premiumUser).streakFreezes,
        today,
        timeZone,
        quests: rows
          .map(({ q, c }) => ({
            period: q.period,
            questId: q.questId,
            cadence: c.cadence,
            title: c.title,
            kind: c.kind as MissionEventKind,
            progress: q.progress,
            target: q.target,
            xp: c.xp,
            gold: c.gold,
            claimed: q.claimedAt !== null,
          }))
          .sort((a, b) => (a.cadence === b.cadence ? a.questId.localeCompare(b.questId) : a.cadence === 'daily' ? -1 : 1)),
        recentRewards: recent.map((r) => ({ label: r.label, xp: r.xp, gold: r.gold, at: r.at.toISOString() })),
        settings: { streakReminders: w.streakReminders, quietFrom: w.quietFrom, quietTo: w.quietTo },
      };
    },

    /** One tap on a completed quest of the current day or week: its XP and gold, once. */
    async claim(userId: string, c: ClaimQuest): Promise<Recorded> {
      const r = await store.db.transaction(async (tx) => {
        const wallet = await store.lockWallet(tx, userId);
        const { day, week } = periodsOf(localDate(now(), wallet.timeZone));
        if (c.period !== day && c.period !== week) throw new DomainError('not_found', MISSION_ERR.questNotFound, 'quest_not_found');
        const row = await store.claim(tx, userId, c.period, c.questId);
        if (!row) throw new DomainError('not_found', MISSION_ERR.questNotFound, 'quest_not_found');
        if (row.claimedAt) throw new DomainError('conflict', MISSION_ERR.questClaimed, 'quest_claimed');
        if (row.progress < row.target) throw new DomainError('conflict', MISSION_ERR.questNotDone, 'quest_not_done');
        const quest = (await quests(tx)).find((q) => q.id === c.questId)!;
        const { counted, levelUp } = await reward(tx, userId, {
          key: `quest:${c.period}:${c.questId}`,
          kind: 'quest',
          label: quest.title,
          xp: quest.xp,
          gold: quest.gold,
        });
        return levelUp === undefined ? { counted } : { counted, levelUp };
      });
      return told(userId, r);
    },

    async saveSettings(userId: string, s: MissionSettings): Promise<void> {
      await store.saveSettings(userId, s);
    },

    /**
     * Users to remind of their streak now: each at most once a local day (claimed in the database,
     * so two processes never both send it), never in their quiet hours, only with the switch on.
     */
    async dueReminders(): Promise<string[]> {
      const at = now();
      const due: string[] = [];
      for (const w of await store.reminderCandidates()) {
        const state = {
          enabled: w.streakReminders,
          quietFrom: w.quietFrom,
          quietTo: w.quietTo,
          timeZone: w.timeZone,
          streak: { days: w.streakDays, lastVisit: w.lastVisit, freezes: w.freezes },
          lastReminder: w.lastReminder,
        };
        if (!reminderDue(state, at) || (await deps.quiet?.(w.userId, at))) continue;
        if (await store.claimReminder(w.userId, localDate(at, w.timeZone))) due.push(w.userId);
      }
      return due;
    },
  };
}

export type MissionService = ReturnType<typeof missionService>;
