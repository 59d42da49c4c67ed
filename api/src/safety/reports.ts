import { and, countDistinct, eq, gt, gte, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { SAFETY_ERR, EVIDENCE_DAYS, SNAPSHOT_MAX_BYTES, type EvidenceView, type ReportAnswer, type reportSchema } from '@parley/contract/safety';
import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import { findAccountById } from '../db/accounts.ts';
import { reports, userBlocks } from '../db/schema.ts';
import { DomainError } from '../platform/errors.ts';
import type { MessageReceipts } from '../platform/receipts.ts';
import { heldEvidence, isHeldContext, type HeldEvidenceSources } from './heldEvidence.ts';

type Report = z.output<typeof reportSchema>;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A snapshot is taken at the report: it may follow it by this much, never later. */
export const SNAPSHOT_WINDOW_MS = 10 * 60 * 1000;
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

export type ReportsDeps = {
  db: Db;
  receipts: MessageReceipts;
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
};

/** Filing reports: the evidence a reporter's page attaches is checked against the server's receipts. */
export function reportDesk(deps: ReportsDeps) {
  const { db } = deps;
  return {
    async file(reporterId: string, body: Report): Promise<ReportAnswer> {
      if (body.reportedUserId === reporterId) throw new DomainError('invalid', SAFETY_ERR.selfReport, 'self_report');
      if (!(await findAccountById(db, body.reportedUserId))) throw new DomainError('not_found', SAFETY_ERR.unknownUser, 'unknown_user');
      if (!isHeldContext(body.context) && (body.messageId !== undefined || body.messageIds !== undefined))
        throw new DomainError('invalid', 'Message ids name messages of a group room, a direct conversation or a live chat.', 'invalid');
      const messages: EvidenceView[] = isHeldContext(body.context) ? await heldEvidence(deps.rooms, reporterId, body.context, body) : [];
      for (const m of body.messages) {
        const senderId = m.from === 'me' ? reporterId : body.reportedUserId;
        const relayed = { roomId: body.roomId ?? '', senderId, id: m.id, sentAt: m.sentAt, text: m.text };
        // One message the server never relayed (or relayed otherwise) and the whole report's copy is
        // suspect; rooms whose messages the server keeps are read from its copy, never the reporter's.
        if (!body.roomId || isHeldContext(body.context) || !deps.receipts.verify(relayed, m.receipt))
          throw new DomainError('invalid', SAFETY_ERR.forgedEvidence, 'forged_evidence');
        messages.push({ from: m.from === 'me' ? ('reporter' as const) : ('reported' as const), text: m.text, sentAt: m.sentAt });
      }
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

    /** The partner's video frame at the report, sent just after it by the reporter's page. */
    async attachSnapshot(reporterId: string, reportId: string, jpeg: Buffer): Promise<void> {
      if (jpeg.length > SNAPSHOT_MAX_BYTES) throw new DomainError('invalid', SAFETY_ERR.snapshotTooLarge, 'snapshot_too_large');
      if (!jpeg.subarray(0, 3).equals(JPEG_MAGIC)) throw new DomainError('invalid', SAFETY_ERR.snapshotNotJpeg, 'snapshot_not_jpeg');
      const done = await db
        .update(reports)
        .set({ snapshot: jpeg })
        .where(
          and(
            eq(reports.id, reportId),
            eq(reports.reporterId, reporterId),
            isNull(reports.snapshot),
            gt(reports.createdAt, new Date(Date.now() - SNAPSHOT_WINDOW_MS)),
          ),
        )
        .returning({ id: reports.id });
      if (done.length === 0) throw new DomainError('forbidden', SAFETY_ERR.snapshotLate, 'snapshot_refused');
    },

    /** How many different people reported this user in the last day (the separate queue's rule). */
    async recentReporters(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: countDistinct(reports.reporterId) })
        .from(reports)
        .where(and(eq(reports.reportedId, userId), isNull(reports.resolvedAt), gt(reports.createdAt, new Date(Date.now() - DAY_MS))));
      return row?.n ?? 0;
    },

    /** Everyone reported by at least `reporters` different people within the last day, unresolved. */
    async inReviewIds(reporters: number): Promise<string[]> {
      const rows = await db
        .select({ id: reports.reportedId })
        .from(reports)
        .where(and(isNull(reports.resolvedAt), gt(reports.createdAt, new Date(Date.now() - DAY_MS))))
        .groupBy(reports.reportedId)
        .having(gte(countDistinct(reports.reporterId), reporters));
      return rows.map((r) => r.id);
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
