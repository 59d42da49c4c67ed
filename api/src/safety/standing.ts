import { eq, inArray, sql } from 'drizzle-orm';
import { ESTABLISHED_ACCOUNT_DAYS, ESTABLISHED_REAL_CHATS, EVIDENCE_DAYS, FULL_REPORT_WEIGHT } from '@parley/contract/safety';
import type { Db } from '../db/client.ts';
import type { Lane } from '../platform/lane.ts';
import { moderationActions, reports, users } from '../db/schema.ts';

/** The room events standing follows: a 1:1 chat that ended, with who spoke in it. */
export type EndedConversation = { kind: string; userIds: string[]; spoke: string[] };

const ONE_TO_ONE = new Set(['textChat', 'videoChat']);

/**
 * Counts real chats: 1:1 chats in which both people said something. A handful of accounts made
 * for a purpose has none, so what needs some standing (counting towards popular topics) can ask
 * for a few. Counted in the database, so every process adds to the same number. Chats that end
 * while the write lane is busy (a wave of skips) are added up and written in one statement when
 * their turn comes.
 */
export function conversationCounter(db: Db, background: Lane, onError: (err: unknown) => void) {
  /** Ended chats per person not yet written; a write is waiting in the lane while this exists. */
  let pending: Map<string, number> | null = null;
  const write = async () => {
    const counts = pending;
    pending = null;
    if (!counts) return;
    // One statement per distinct count: nearly always one (each person ended one chat meanwhile).
    const byCount = new Map<number, string[]>();
    for (const [id, n] of counts) {
      let ids = byCount.get(n);
      if (!ids) byCount.set(n, (ids = []));
      ids.push(id);
    }
    for (const [n, ids] of byCount)
      await db
        .update(users)
        .set({ realChats: sql`${users.realChats} + ${n}` })
        .where(inArray(users.id, ids));
  };
  return {
    ended(e: EndedConversation) {
      if (!ONE_TO_ONE.has(e.kind) || e.userIds.length < 2) return;
      if (!e.userIds.every((id) => e.spoke.includes(id))) return;
      const first = pending === null;
      pending ??= new Map();
      for (const id of new Set(e.userIds)) pending.set(id, (pending.get(id) ?? 0) + 1);
      if (first) background.run(write).catch(onError);
    },
  };
}

/** What a report's weight is made of: whether the reporter had met the person, and the reporter's own record. */
export type ReporterStanding = {
  met: boolean;
  accountAgeDays: number;
  realChats: number;
  /** Warnings, suspensions and bans of the reporter in the last EVIDENCE_DAYS, less appeals granted. */
  sanctions: number;
  /** Open reports about the reporter: the weights of their reporters, each once. */
  reportedWeight: number;
  /** The reporter's earlier reports a moderator acted on, and those a moderator dismissed. */
  upheld: number;
  dismissed: number;
};

/**
 * How much a report counts towards review, 0 to FULL_REPORT_WEIGHT. Nothing without an encounter,
 * nothing from an account that is not established (so throwaway accounts alone never restrict
 * anyone); half for a reporter sanctioned lately or reported themselves by an established person;
 * and scaled by how often moderators agreed with the reporter before: (upheld + 1) / (upheld + dismissed + 1).
 */
export function reportWeight(s: ReporterStanding): number {
  if (!s.met) return 0;
  if (s.accountAgeDays < ESTABLISHED_ACCOUNT_DAYS || s.realChats < ESTABLISHED_REAL_CHATS) return 0;
  let weight = 1;
  if (s.sanctions > 0) weight *= 0.5;
  if (s.reportedWeight >= FULL_REPORT_WEIGHT) weight *= 0.5;
  weight *= (s.upheld + 1) / (s.upheld + s.dismissed + 1);
  return Math.round(weight * FULL_REPORT_WEIGHT);
}

const count = (q: ReturnType<typeof sql>) => sql<number>`(${q})`.mapWith(Number);

/** The reporter's own record, read in one query when they file a report. */
export async function reporterRecord(db: Db, reporterId: string): Promise<Omit<ReporterStanding, 'met'> | undefined> {
  const since = sql`now() - make_interval(days => ${EVIDENCE_DAYS})`;
  const [row] = await db
    .select({
      accountAgeDays: sql<number>`extract(epoch from now() - ${users.createdAt}) / 86400`.mapWith(Number),
      realChats: users.realChats,
      sanctions: count(sql`select count(*) filter (where ${moderationActions.action} in ('warn', 'suspend', 'ban'))
        - count(*) filter (where ${moderationActions.action} = 'appealGranted')
        from ${moderationActions} where ${moderationActions.userId} = ${users.id} and ${moderationActions.createdAt} > ${since}`),
      reportedWeight: count(sql`select coalesce(sum(w), 0) from (select max(${reports.weight}) as w from ${reports}
        where ${reports.reportedId} = ${users.id} and ${reports.resolvedAt} is null group by ${reports.reporterId}) as by_reporter`),
      upheld: count(
        sql`select count(*) from ${reports} where ${reports.reporterId} = ${users.id} and ${reports.resolution} in ('warn', 'suspend', 'ban')`,
      ),
      dismissed: count(
        sql`select count(*) from ${reports} where ${reports.reporterId} = ${users.id} and ${reports.resolution} = 'dismiss'`,
      ),
    })
    .from(users)
    .where(eq(users.id, reporterId));
  return row;
}
