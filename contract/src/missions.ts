import { z } from 'zod';
import { text } from './text.ts';

/**
 * Progress events the server sees and rewards. Each is recorded once per user and key (a room
 * id, a local date, a friendship), however often or by however many processes it is delivered.
 */
export const MISSION_EVENT_KINDS = [
  /** A 1:1 chat that lasted at least the minimum chat duration, both people speaking. */
  'chatMinute',
  /** A 1:1 chat in which the partner answered (both people said something). */
  'chatAnswered',
  /** The first visit of a local day. */
  'dailyVisit',
  /** A friendship was made (both sides get one). */
  'friendMade',
  /** A message in a group room got a reply or a reaction. */
  'groupMessageAnswered',
  /** Minutes watched or streamed live (amount = minutes). */
  'liveMinutes',
] as const;
export type MissionEventKind = (typeof MISSION_EVENT_KINDS)[number];

/** XP and gold each event gives by itself, besides the quests it moves. */
export const EVENT_REWARDS: Record<MissionEventKind, { xp: number; gold: number }> = {
  chatMinute: { xp: 15, gold: 2 },
  chatAnswered: { xp: 10, gold: 1 },
  dailyVisit: { xp: 5, gold: 10 },
  friendMade: { xp: 25, gold: 5 },
  groupMessageAnswered: { xp: 5, gold: 1 },
  liveMinutes: { xp: 1, gold: 0 },
};

/** Gold given at each new level. */
export const LEVEL_UP_GOLD = 20;
/** Quests drawn each local day and each local week. */
export const DAILY_QUESTS = 3;
export const WEEKLY_QUESTS = 1;
/** A streak freeze is earned for every run of this many days. */
export const FREEZE_EVERY_DAYS = 7;
/** During an account's first days a missed day does not break the streak. */
export const LENIENT_DAYS = 7;
/** Days of the streak calendar /missions shows. */
export const CALENDAR_DAYS = 28;
/** The default shortest 1:1 chat that counts as a chat of a minute (MISSION_MIN_CHAT_SECONDS). */
export const MIN_CHAT_SECONDS = 60;

/** An IANA time zone the runtime knows (Europe/Paris, America/New_York, UTC). */
export const timeZoneSchema = text()
  .max(64, 'timeZone is too long')
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz);
    } catch {
      return false;
    }
  }, 'timeZone must be an IANA time zone such as Europe/Paris');

/** POST /api/missions/visit: the day's visit, counted in the user's own time zone. */
export const visitRequestSchema = z.strictObject({ timeZone: timeZoneSchema });
export type VisitRequest = z.infer<typeof visitRequestSchema>;

/** POST /api/missions/quests/claim: one tap on a completed quest. */
export const claimQuestSchema = z.strictObject({
  period: text().regex(/^(day|week):\d{4}-(\d{2}-\d{2}|W\d{2})$/, 'period is not a quest period'),
  questId: text().regex(/^[a-z0-9-]{1,40}$/, 'questId is not a quest'),
});
export type ClaimQuest = z.infer<typeof claimQuestSchema>;

/** PUT /api/missions/settings: the streak reminder switch and its quiet hours (local hours 0–23). */
export const missionSettingsSchema = z.strictObject({
  streakReminders: z.boolean(),
  quietFrom: z.number().int().min(0).max(23).optional(),
  quietTo: z.number().int().min(0).max(23).optional(),
});
export type MissionSettings = z.infer<typeof missionSettingsSchema>;

export type MissionQuest = {
  period: string;
  questId: string;
  cadence: 'daily' | 'weekly';
  title: string;
  kind: MissionEventKind;
  progress: number;
  target: number;
  xp: number;
  gold: number;
  claimed: boolean;
};

export type RecentReward = { label: string; xp: number; gold: number; at: string };

/** GET /api/missions: the spec's `mission` state and what /missions shows. */
export type MissionOverview = {
  level: number;
  XP: number;
  /** XP still needed for the next level. */
  nextLevel: number;
  /** Total XP at which the current and the next level start (the XP bar's ends). */
  levelStartXp: number;
  nextLevelXp: number;
  gold: number;
  consecutiveDays: number;
  /** Visited days (YYYY-MM-DD, local) of the calendar's window. */
  parsedDates: string[];
  /** Days a freeze covered. */
  frozenDates: string[];
  freezes: number;
  maxFreezes: number;
  today: string;
  timeZone: string;
  quests: MissionQuest[];
  recentRewards: RecentReward[];
  settings: { streakReminders: boolean; quietFrom: number; quietTo: number };
};

/** Server → the user's sockets: something changed (a reward, a level). `levelUp` when a new level was reached. */
export type MissionProgressed = { levelUp?: number };

export const missionEvents = {
  /** Server → the user's sockets: progress changed (MissionProgressed). */
  progressed: 'missions:progressed',
  /** Server → the user's sockets: today's visit would keep their streak going (in-app reminder). */
  reminder: 'missions:reminder',
} as const;

export const MISSION_ERR = {
  questNotFound: 'That quest is not one of yours right now.',
  questNotDone: 'Finish the quest first, then claim its reward.',
  questClaimed: 'You already claimed this reward.',
  rateLimited: 'Too many requests. Wait a moment and try again.',
} as const;
