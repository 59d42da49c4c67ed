import { and, count, desc, eq, gte, lte, ne } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  LIVE_CATEGORIES,
  type LiveCategory,
  type LiveRecord,
  type LiveRestrictions,
  type LiveStream,
  type LiveSummary,
} from '@parley/contract/live';
import type { Db } from '../db/client.ts';
import { findAccountById } from '../db/accounts.ts';
import { liveFollows, liveStreamSummaries, reports, storedRooms, users } from '../db/schema.ts';
import { DomainError } from '../platform/errors.ts';
import type { RoomModeration } from '../rooms/moderation.ts';
import type { LiveStreams, StreamEnded } from './streams.ts';

/** Streams' ids are UUIDs: anything else was never a stream. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reports filed from one stream that its record lists, newest first. */
const REPORTS_LISTED = 200;

const notBroadcaster = () => new DomainError('forbidden', 'Only the broadcaster can see this.', 'not_broadcaster');
const notModerator = () => new DomainError('forbidden', 'Only the broadcaster and their moderators can see this.', 'not_moderator');

/**
 * What a stream leaves behind for its broadcaster: its figures once it ended (the summary), who is
 * muted or banned in its channel while it runs, and its record (its chat's moderation, as the rooms
 * record it in the channel, and the reports filed from it). Each asks who is asking.
 */
export function streamRecords(db: Db, streams: LiveStreams, moderation: () => RoomModeration) {
  const isAdmin = async (userId: string) => (await findAccountById(db, userId))?.role === 'admin';

  /** The stream live or ended (here, on another process, or long ago): its broadcaster and when it ran. */
  async function streamOf(roomId: string): Promise<LiveStream> {
    try {
      return await streams.find(roomId);
    } catch (err) {
      if (!(err instanceof DomainError) || err.failure !== 'not_found' || !UUID.test(roomId)) throw err;
      const [row] = await db
        .select({ s: liveStreamSummaries, username: users.username, avatar: users.avatar })
        .from(liveStreamSummaries)
        .innerJoin(users, eq(users.id, liveStreamSummaries.broadcasterId))
        .where(eq(liveStreamSummaries.roomId, roomId));
      if (!row) throw err;
      const category = (LIVE_CATEGORIES as readonly string[]).includes(row.s.category) ? (row.s.category as LiveCategory) : 'Other';
      return {
        roomId,
        title: row.s.title,
        category,
        broadcaster: { userId: row.s.broadcasterId, username: row.username, avatar: row.avatar },
        viewers: 0,
        startedAt: row.s.startedAt.getTime(),
        endedAt: row.s.endedAt.getTime(),
        hasThumbnail: false,
      };
    }
  }

  /** The stored room of the broadcaster's channel (their moderation), or null before their first stream. */
  async function channelOf(broadcasterId: string): Promise<string | null> {
    const [c] = await db.select({ id: storedRooms.id }).from(storedRooms).where(eq(storedRooms.channelOf, broadcasterId));
    return c?.id ?? null;
  }

  return {
    /** Keeps an ended stream's figures: its summary and record outlast the process's memory. */
    async save(f: StreamEnded): Promise<void> {
      await db
        .insert(liveStreamSummaries)
        .values({
          roomId: f.roomId,
          broadcasterId: f.broadcasterId,
          title: f.title,
          category: f.category,
          startedAt: new Date(f.startedAt),
          endedAt: new Date(f.endedAt),
          peakViewers: f.peakViewers,
          totalViewers: f.totalViewers,
          messages: f.messages,
          gifts: f.gifts,
          gold: f.gold,
        })
        .onConflictDoNothing();
    },

    /** An ended stream's summary, for its broadcaster (and admins). */
    async summary(userId: string, roomId: string): Promise<LiveSummary> {
      const stream = await streamOf(roomId);
      if (stream.broadcaster.userId !== userId && !(await isAdmin(userId))) throw notBroadcaster();
      const [row] = await db.select().from(liveStreamSummaries).where(eq(liveStreamSummaries.roomId, roomId));
      if (!row)
        throw stream.endedAt
          ? new DomainError('not_found', 'This stream’s figures were not kept.', 'no_summary')
          : new DomainError('conflict', 'The stream is still live: its summary comes once it ends.', 'still_live');
      const [followed] = await db
        .select({ n: count() })
        .from(liveFollows)
        .where(
          and(
            eq(liveFollows.broadcasterId, row.broadcasterId),
            gte(liveFollows.createdAt, row.startedAt),
            lte(liveFollows.createdAt, row.endedAt),
          ),
        );
      return {
        roomId,
        title: row.title,
        startedAt: row.startedAt.getTime(),
        endedAt: row.endedAt.getTime(),
        peakViewers: row.peakViewers,
        totalViewers: row.totalViewers,
        messages: row.messages,
        gifts: row.gifts,
        gold: row.gold,
        newFollowers: Number(followed?.n ?? 0),
      };
    },

    /** Who is muted or banned in the stream's channel now, for the broadcaster and their moderators. */
    async restrictions(userId: string, roomId: string): Promise<LiveRestrictions> {
      const stream = await streamOf(roomId);
      const channel = await channelOf(stream.broadcaster.userId);
      const role = channel ? await moderation().roleIn(channel, userId) : null;
      if (!channel || (role !== 'owner' && role !== 'moderator')) throw notModerator();
      return moderation().restrictionsOf(channel);
    },

    /**
     * What happened in the stream's chat while it ran, newest first: the channel's moderation
     * record in the stream's time, and the reports filed from it. The broadcaster is not told
     * who reported; an admin is.
     */
    async record(userId: string, roomId: string): Promise<LiveRecord> {
      const stream = await streamOf(roomId);
      const admin = stream.broadcaster.userId !== userId && (await isAdmin(userId));
      if (stream.broadcaster.userId !== userId && !admin) throw notBroadcaster();
      const channel = await channelOf(stream.broadcaster.userId);
      const window = { from: stream.startedAt, to: stream.endedAt ?? Date.now() };
      const reporter = alias(users, 'reporter');
      const reported = alias(users, 'reported');
      const [moderated, reported_] = await Promise.all([
        channel ? moderation().entriesOf(channel, window) : [],
        db
          .select({ id: reports.id, reporter: reporter.username, target: reported.username, reason: reports.reason, at: reports.createdAt })
          .from(reports)
          .leftJoin(reporter, eq(reporter.id, reports.reporterId))
          .leftJoin(reported, eq(reported.id, reports.reportedId))
          // A report about the broadcaster is for the staff: the broadcaster's record leaves it out.
          .where(
            and(
              eq(reports.roomId, roomId),
              eq(reports.context, 'live'),
              admin ? undefined : ne(reports.reportedId, stream.broadcaster.userId),
            ),
          )
          .orderBy(desc(reports.createdAt))
          .limit(REPORTS_LISTED),
      ]);
      const entries: LiveRecord['entries'] = [
        ...moderated.map((e) => ({ ...e, kind: 'moderation' as const })),
        ...reported_.map((r) => ({
          kind: 'report' as const,
          id: r.id,
          reporter: admin ? r.reporter : null,
          target: r.target,
          reason: r.reason,
          at: r.at.getTime(),
        })),
      ].sort((a, b) => b.at - a.at);
      return { stream, entries };
    },
  };
}

export type StreamRecords = ReturnType<typeof streamRecords>;
