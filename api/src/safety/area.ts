import type { AppDeps, HeldEvidenceSources } from '../deps.ts';
import type { Account } from '../db/accounts.ts';
import { SIGNAL_RETENTION_DAYS, safetyEvents, type BanNotice, type Blocked } from '@parley/contract/safety';
import { deleteSignalsBefore } from '../db/accountSignals.ts';
import { messageReceipts } from '../platform/receipts.ts';
import type { Realtime } from '../realtime/server.ts';
import { blockLists } from './blocks.ts';
import { encounterFinder, type EncounterSources } from './encounters.ts';
import { moderationDesk } from './moderation.ts';
import { reportDesk, type ReportsDeps } from './reports.ts';
import { restrictions } from './restrictions.ts';
import { reviewList } from './review.ts';
import { safetyRoutes } from './routes.ts';
import { attachModeratorSockets } from './socket.ts';
import { conversationCounter, type EndedConversation } from './standing.ts';

/** How often each process deletes evidence older than EVIDENCE_DAYS, and networks and fingerprints older than SIGNAL_RETENTION_DAYS. */
const EVIDENCE_SWEEP_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The safety area as server.ts composes it: blocks, reports, the moderators' queue, bans and appeals. */
export function createSafety(
  deps: AppDeps,
  opts: {
    verifyCredentials(username: string, password: string): Promise<Account | undefined>;
    /** Group rooms, direct messages and live chats, whose messages reports read from the server's copy. */
    rooms: HeldEvidenceSources;
    /** Whether two users were the members of a 1:1 room of this kind (people/ keeps the encounters). */
    metIn: ReportsDeps['metIn'];
    /** Where a reporter could have met the person they report: a report weighs only after an encounter. */
    met: EncounterSources;
    /** A report was filed: the reporter's 1:1 chats with the reported person end now. */
    reported?(reporterId: string, reportedId: string): void;
    /** A block was added (a report's or from a profile): conversations between the two close now. */
    blocked?(blockerId: string, blockedId: string): void;
  },
) {
  const onError = (err: unknown) => deps.log.error({ err }, 'safety background step failed');
  const blocks = blockLists(deps.db, onError);
  const conversations = conversationCounter(deps.db, deps.background, onError);
  let moderators: ReturnType<typeof attachModeratorSockets> | undefined;
  const queueChanged = (kind: 'report' | 'appeal' | 'decision', userId: string) => {
    if (kind !== 'appeal') review.changed(userId);
    moderators?.queueChanged({ kind, userId });
  };
  /** A block was added in this process: matching hears of it now, the blocker's pages hide the person. */
  const blockAdded = (blocker: string, blocked: string) => {
    blocks.forget(blocker);
    blocks.forget(blocked);
    opts.blocked?.(blocker, blocked);
    deps.realtime?.toUser(blocker, safetyEvents.blocked, { userId: blocked } satisfies Blocked);
  };
  const reports = reportDesk({
    db: deps.db,
    receipts: messageReceipts(deps.secrets.jwtSecret),
    blocked: blockAdded,
    reported: (reporter, reported) => opts.reported?.(reporter, reported),
    queueChanged: (userId) => queueChanged('report', userId),
    rooms: opts.rooms,
    metIn: opts.metIn,
    met: encounterFinder(opts.met),
  });
  const moderation = moderationDesk({
    db: deps.db,
    endAccount(userId, notice?: BanNotice) {
      deps.revocations.revokeUser(userId);
      // Every tab hears the rule and where to appeal before its socket closes.
      if (notice) deps.realtime?.toUser(userId, safetyEvents.banned, notice);
      deps.realtime?.endSession(userId, 'account_suspended').catch(onError);
    },
    restricted: (userId) => restricted.restricted(userId),
    queueChanged,
    tell(userId, text, link) {
      void deps.notifier?.notify(userId, { kind: 'moderation', text, link }).catch(onError);
    },
    supportReplied(userId, text) {
      void deps.notifier?.notify(userId, { kind: 'supportReply', text, link: '/contact-support' }).catch(onError);
    },
  });
  const review = reviewList(reports, onError);
  const restricted = restrictions(deps.db);
  // A restricted account (linked to a banned one) is matched like someone in review, among them.
  const inReview = async (userId: string) => (await review.inReview(userId)) || (await restricted.restricted(userId));
  const sweep = setInterval(() => {
    void reports.deleteOldEvidence().catch(onError);
    void deleteSignalsBefore(deps.db, new Date(Date.now() - SIGNAL_RETENTION_DAYS * DAY_MS)).catch(onError);
  }, EVIDENCE_SWEEP_MS);
  sweep.unref();
  return {
    routes: safetyRoutes(deps, { reports, moderation, verifyCredentials: opts.verifyCredentials }),
    attach(realtime: Realtime) {
      moderators = attachModeratorSockets(realtime.io, deps.db);
    },
    /** A room ended: a 1:1 chat in which both spoke adds to both accounts' standing. */
    conversationEnded: (e: EndedConversation) => conversations.ended(e),
    /** Users this one blocked or was blocked by. */
    blocksOf: (userId: string) => blocks.of(userId),
    /** Reported within a day by SHADOW_QUEUE_REPORTERS established people who had met them, unreviewed, or restricted: matched only among such people. */
    inReview,
    /** Linked to a banned account at sign-up, history not yet clean: no video chat. */
    restricted: (userId: string) => restricted.restricted(userId),
    /** `blocker` blocked `blocked` in this process (from a profile or settings): as a report's block. */
    blockAdded,
    /** A block between two users was added or removed in this process: both are looked up again at once. */
    blocksChanged: (a: string, b: string) => {
      blocks.forget(a);
      blocks.forget(b);
    },
    close: async () => {
      clearInterval(sweep);
      review.close();
      await blocks.close();
    },
  };
}
