import { randomUUID } from 'node:crypto';
import type { RoomType } from '@parley/contract/matchmaking';
import { Matcher, type MatcherOptions, type Pairing, type Seeker } from './matcher.ts';

export type Match = {
  roomId: string;
  roomType: RoomType;
  a: Seeker;
  b: Seeker;
  sharedTopics: string[];
  /** A language exchange: `a` learns aLearns, which `b` speaks, and the other way round. */
  exchange?: { aLearns: string; bLearns: string };
};

/**
 * The waiting queues of every room type. Asynchronous so a Redis-backed implementation (several
 * API processes sharing one queue) can replace the in-process one without touching callers.
 * Matches are reported to the listener given at creation, whether they happen on enqueue or later
 * (topic fallback, recent-partner cooldown).
 */
export interface Matchmaker {
  enqueue(seeker: Seeker): Promise<void>;
  /** Resolves true when the ticket was waiting and is now removed. */
  cancel(ticket: string): Promise<boolean>;
  /** Seekers waiting, for one kind of room or all. */
  waitingCount(roomType?: RoomType): Promise<number>;
  close(): Promise<void>;
}

export type MatchListener = (match: Match) => void;

const FORGET_RECENT_AFTER_MS = 30 * 60_000;

/** The embedded default: one Matcher in this process, one timer for its next deadline. */
export function createInProcessMatchmaker(onMatch: MatchListener, opts: MatcherOptions & { now?: () => number } = {}): Matchmaker {
  const matcher = new Matcher(opts);
  const now = opts.now ?? (() => performance.now());
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let closed = false;

  const emit = (p: Pairing) =>
    onMatch({
      roomId: randomUUID(),
      roomType: p.a.roomType,
      a: p.a,
      b: p.b,
      sharedTopics: p.sharedTopics,
      ...(p.exchange ? { exchange: p.exchange } : {}),
    });

  const runDue = () => {
    for (const p of matcher.advance(now())) emit(p);
  };

  const schedule = () => {
    if (closed) return;
    const at = matcher.nextDeadline();
    if (at === undefined || at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerAt = Infinity;
        runDue();
        schedule();
      },
      Math.max(0, Math.ceil(at - now())),
    );
  };

  // Recent partners of users gone for long are forgotten; housekeeping off the hot path.
  const sweep = setInterval(() => matcher.forgetIdle(now(), FORGET_RECENT_AFTER_MS), 60_000);
  sweep.unref();

  return {
    async enqueue(seeker) {
      if (closed) return;
      runDue();
      const p = matcher.add(seeker, now());
      if (p) emit(p);
      schedule();
    },
    async cancel(ticket) {
      return matcher.remove(ticket);
    },
    async waitingCount(roomType) {
      return roomType ? matcher.waitingIn(roomType) : matcher.size;
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(sweep);
    },
  };
}

/** A matchmaker that needs a moment to start (Redis): calls wait for it. */
export function whenReady(ready: Promise<Matchmaker>): Matchmaker {
  return {
    enqueue: async (seeker) => (await ready).enqueue(seeker),
    cancel: async (ticket) => (await ready).cancel(ticket),
    waitingCount: async (roomType) => (await ready).waitingCount(roomType),
    close: async () => (await ready).close(),
  };
}
