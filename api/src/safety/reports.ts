import { and, eq, gt, isNotNull, isNull, lt, max, or, sql, type SQL } from 'drizzle-orm';
import {
  SAFETY_ERR,
  EVIDENCE_DAYS,
  SNAPSHOT_MAX_BYTES,
  type EvidenceView,
  type ReportAnswer,
  type ReportEncounter,
  type reportSchema,
} from '@parley/contract/safety';
import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import { findAccountById } from '../db/accounts.ts';
import { reports, userBlocks } from '../db/schema.ts';
import { DomainError } from '../platform/errors.ts';
import type { MessageReceipts } from '../platform/receipts.ts';
import { heldEvidence, isHeldContext, type HeldEvidenceSources } from './heldEvidence.ts';
import { cleanSnapshot } from './snapshot.ts';
import { reporterRecord, reportWeight } from './standing.ts';

type Report = z.output<typeof reportSchema>;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A snapshot is taken at the report: it may follow it by this much, never later. */
export const SNAPSHOT_WINDOW_MS = 10 * 60 * 1000;
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** Reports about a 1:1 chat: their room must be one the reporter and the reported person had. */
type ChatContext = 'textChat' | 'videoChat';
const isChatContext = (c: Report['context']): c is ChatContext => c === 'textChat' || c === 'videoChat';

export type ReportsDeps = {
  db: Db;
  receipts: Pick<MessageReceipts, 'verify'>;
  /** Whether these two were the members of this 1:1 room of this kind (people/ keeps the encounters). */
  metIn(room: { roomId: string; kind: ChatContext }, userId: string, partnerId: string): Promise<boolean>;
  /** The block lists learn of a block this process made at once (the others within a second). */
  blocked(blocker: string, blocked: string): void;
  /**
   * Any report ends the reporter's 1:1 chats with the reported person at once: someone who reports
   * wants out, block or not.
   */
  reported?(reporterId: string, reportedId: string): void;
  /** Online moderators are told of a new report. */
  queueChanged(userId: string): void;
  /** Group rooms, direct messages and live chats: the server's own copy of their messages. */
  rooms: HeldEvidenceSources;
  /** A 1:1 chat's pictures named by the report's messages (their receipts checked) stay as its evidence. */
  keepChatPictures?(roomId: string, pictureIds: string[]): Promise<void>;
  /** Where the reporter had met the reported person (a 1:1 chat, a group room, direct messages, a stream), or null. */
  met(reporterId: string, reportedId: string): Promise<ReportEncounter | null>;
};

/** Unresolved reports of the last day that weigh something. */
const openWeighed = (...more: SQL[]) =>
  and(isNull(reports.resolvedAt), gt(reports.createdAt, new Date(Date.now() - DAY_MS)), gt(reports.weight, 0), ...more);

/** Filing reports: the evidence a reporter's page attaches is checked against the server's receipts. */
export function reportDesk(deps: ReportsDeps) {
  const { db } = deps;
  return {
    async file(reporterId: string, body: Report): Promise<ReportAnswer> {
      if (body.reportedUserId === reporterId) throw new DomainError('invalid', SAFETY_ERR.selfReport, 'self_report');
      if (!(await findAccountById(db, body.reportedUserId))) throw new DomainError('not_found', SAFETY_ERR.unknownUser, 'unknown_user');
      if (!isHeldContext(body.context) && (body.messageId !== undefined || body.messageIds !== undefined))
        throw new DomainError('invalid', 'Message ids name messages of a group room, a direct conversation or a live chat.', 'invalid');
      const context = body.context;
      // A chat's report names a room the two really had: the server knows its encounters, so a
      // reporter cannot lend someone else's name to a room (or words) that was never theirs.
      if (isChatContext(context)) {
        if (!body.roomId) throw new DomainError('invalid', SAFETY_ERR.roomNeeded, 'room_needed');
        if (!(await deps.metIn({ roomId: body.roomId, kind: context }, reporterId, body.reportedUserId)))
          throw new DomainError('forbidden', SAFETY_ERR.notYourChat, 'not_your_chat');
      }
      const messages: EvidenceView[] = isHeldContext(context) ? await heldEvidence(deps.rooms, reporterId, context, body) : [];
      const pictureIds: string[] = [];
      for (const m of body.messages) {
        // Rooms whose messages the server keeps are read from its copy, never the reporter's; a
        // profile has no conversation to show.
        if (!isChatContext(context) || !body.roomId) throw new DomainError('invalid', SAFETY_ERR.forgedEvidence, 'forged_evidence');
        const senderId = m.from === 'me' ? reporterId : body.reportedUserId;
        const relayed = {
          roomId: body.roomId,
          kind: context,
          senderId,
          id: m.id,
          sentAt: m.sentAt,
          text: m.text,
          attachmentId: m.attachmentId,
        };
        // One message the server never relayed in this room (or relayed otherwise) and the whole report's copy is suspect.
        if (!deps.receipts.verify(relayed, m.receipt)) throw new DomainError('invalid', SAFETY_ERR.forgedEvidence, 'forged_evidence');
        if (m.attachmentId !== undefined) pictureIds.push(m.attachmentId);
        messages.push({
          from: m.from === 'me' ? ('reporter' as const) : ('reported' as const),
          text: m.text,
          sentAt: m.sentAt,
          ...(m.attachmentId !== undefined && { attachment: { id: m.attachmentId, kind: 'image' as const } }),
        });
      }
      // Kept before the report ends the chat: its pictures would go after the grace otherwise.
      if (pictureIds.length > 0 && body.roomId) await deps.keepChatPictures?.(body.roomId, pictureIds);
      // Weighed as filed: what the reporter's record is now, not what it becomes.
      const [encounter, record] = await Promise.all([deps.met(reporterId, body.reportedUserId), reporterRecord(db, reporterId)]);
      const weight = record ? reportWeight({ ...record, met: encounter !== null }) : 0;
      const [row] = await db
        .insert(reports)
        .values({
          reporterId,
          reportedId: body.reportedUserId,
          context: body.context,
          roomId: body.roomId ?? null,
          reason: body.reason,
          note: body.note ?? '',
          messages: messages.length > 0 ? messages : null,
          weight,
          encounter,
        })
        .returning({ id: reports.id });
      if (body.block) {
        await db.insert(userBlocks).values({ blockerId: reporterId, blockedId: body.reportedUserId }).onConflictDoNothing();
        deps.blocked(reporterId, body.reportedUserId);
      }
      deps.reported?.(reporterId, body.reportedUserId);
      deps.queueChanged(body.reportedUserId);
      return { id: row!.id, blocked: body.block, messages: messages.length };
    },

    /**
     * The partner's video frame at the report, sent just after it by the reporter's page: once, to
     * the reporter's own report of a video chat the two really had, as a JPEG the server re-encodes.
     */
    async attachSnapshot(reporterId: string, reportId: string, jpeg: Buffer): Promise<void> {
      if (jpeg.length > SNAPSHOT_MAX_BYTES) throw new DomainError('invalid', SAFETY_ERR.snapshotTooLarge, 'snapshot_too_large');
      if (!jpeg.subarray(0, 3).equals(JPEG_MAGIC)) throw new DomainError('invalid', SAFETY_ERR.snapshotNotJpeg, 'snapshot_not_jpeg');
      const awaiting = and(
        eq(reports.id, reportId),
        eq(reports.reporterId, reporterId),
        isNull(reports.snapshot),
        gt(reports.createdAt, new Date(Date.now() - SNAPSHOT_WINDOW_MS)),
      );
      const [report] = await db
        .select({ context: reports.context, roomId: reports.roomId, reportedId: reports.reportedId })
        .from(reports)
        .where(awaiting)
        .limit(1);
      if (!report) throw new DomainError('forbidden', SAFETY_ERR.snapshotLate, 'snapshot_refused');
      if (
        report.context !== 'videoChat' ||
        !report.roomId ||
        !(await deps.metIn({ roomId: report.roomId, kind: 'videoChat' }, reporterId, report.reportedId))
      )
        throw new DomainError('forbidden', SAFETY_ERR.snapshotNotVideo, 'snapshot_not_video');
      const clean = await cleanSnapshot(jpeg);
      // Two uploads at once: the first one stored wins.
      const done = await db.update(reports).set({ snapshot: clean }).where(awaiting).returning({ id: reports.id });
      if (done.length === 0) throw new DomainError('forbidden', SAFETY_ERR.snapshotLate, 'snapshot_refused');
    },

    /** The weight of this user's unresolved reports of the last day, each reporter's heaviest once (the separate queue's rule). */
    async recentWeight(userId: string): Promise<number> {
      const byReporter = db
        .select({ weight: max(reports.weight).as('weight') })
        .from(reports)
        .where(openWeighed(eq(reports.reportedId, userId)))
        .groupBy(reports.reporterId)
        .as('by_reporter');
      const [row] = await db.select({ total: sql<number>`coalesce(sum(${byReporter.weight}), 0)`.mapWith(Number) }).from(byReporter);
      return row?.total ?? 0;
    },

    /** Everyone whose unresolved reports of the last day weigh at least `weight` (each reporter's heaviest once). */
    async inReviewIds(weight: number): Promise<string[]> {
      const byReporter = db
        .select({ reportedId: reports.reportedId, weight: max(reports.weight).as('weight') })
        .from(reports)
        .where(openWeighed())
        .groupBy(reports.reportedId, reports.reporterId)
        .as('by_reporter');
      const rows = await db
        .select({ id: byReporter.reportedId })
        .from(byReporter)
        .groupBy(byReporter.reportedId)
        .having(sql`sum(${byReporter.weight}) >= ${weight}`);
      return rows.map((r) => r.id);
    },

    /** Whether the report's evidence (still) includes this picture or voice message: a moderator may see it then. */
    async holdsAttachment(reportId: string, attachmentId: string): Promise<boolean> {
      const [row] = await db.select({ messages: reports.messages }).from(reports).where(eq(reports.id, reportId)).limit(1);
      return row?.messages?.some((m) => m.attachment?.id === attachmentId) ?? false;
    },

    /** Evidence is kept EVIDENCE_DAYS, then deleted; the report itself stays in the user's history. */
    async deleteOldEvidence(now = new Date()): Promise<number> {
      const done = await db
        .update(reports)
        .set({ messages: null, snapshot: null })
        .where(
          and(
            lt(reports.createdAt, new Date(now.getTime() - EVIDENCE_DAYS * DAY_MS)),
            or(isNotNull(reports.messages), isNotNull(reports.snapshot)),
          ),
        )
        .returning({ id: reports.id });
      return done.length;
    },
  };
}

export type ReportDesk = ReturnType<typeof reportDesk>;
