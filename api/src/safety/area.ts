import type { AppDeps, BlockEventSource, Notifier, RoomCore, RoomEventSource } from '../deps.ts';
import type { Account } from '../db/accounts.ts';
import { SIGNAL_RETENTION_DAYS, safetyEvents, type BanNotice, type Blocked, EVIDENCE_DAYS } from '@parley/contract/safety';
import { deleteSignalsBefore } from '../db/accountSignals.ts';
import { messageReceipts } from '../platform/receipts.ts';
import { retentionJobs } from '../platform/retention.ts';
import { roomEvidence, storedRoomEncounters } from '../rooms/evidence.ts';
import { blockLists } from './blocks.ts';
import { encounterFinder } from './encounters.ts';
import { moderationDesk } from './moderation.ts';
import { reportDesk, type ReportsDeps } from './reports.ts';
import { restrictions } from './restrictions.ts';
import { reviewList } from './review.ts';
import { safetyRoutes } from './routes.ts';
import { attachModeratorSockets } from './socket.ts';
import { conversationCounter } from './standing.ts';

/** How often each process deletes evidence older than EVIDENCE_DAYS, and networks and fingerprints older than SIGNAL_RETENTION_DAYS. */
const DAY_MS = 24 * 60 * 60 * 1000;

/** What safety asks of the areas around it; server.ts wires it. */
export type SafetyWiring = {
  verifyCredentials(username: string, password: string): Promise<Account | undefined>;
  /** Tells people what moderators decided, and support's replies. */
  notifier: Notifier;
  /** 1:1 rooms: a report or a block ends the two people's chats at once; an ended chat counts towards standing. */
  chats: { endBetween(userId: string, otherId: string): void; rooms: RoomEventSource };
  /** Group and direct rooms: a report's evidence and where people met; a block closes a direct conversation. */
  storedRooms: RoomCore;
  /** Live streams: who meets in one now (a stream's chat is evidence through the room core, as every kind's). */
  live: { metNow(reporterId: string, otherId: string): boolean };
  /** People: encounters in 1:1 chats and past watches, and the blocks added or removed on profiles. */
  people: {
    met(userId: string, partnerId: string, place: 'chat' | 'live'): Promise<boolean>;
    /** Whether two users were the members of a 1:1 room of this kind. */
    metIn: ReportsDeps['metIn'];
    blocks: BlockEventSource;
  };
};

/** The safety area as server.ts composes it: blocks, reports, the moderators' queue, bans and appeals. */
export function createSafety(deps: AppDeps, opts: SafetyWiring) {
  const onError = (err: unknown) => deps.log.error({ err }, 'safety background step failed');
  const blocks = blockLists(deps.db, onError);
  const conversations = conversationCounter(deps.db, deps.background, onError);
  const queueChanged = (kind: 'report' | 'appeal' | 'decision', userId: string) => {
    if (kind !== 'appeal') review.changed(userId);
    moderators.queueChanged({ kind, userId });
  };
  /** A block was added in this process: matching hears of it now, the blocker's pages hide the person. */
  const blockAdded = (blocker: string, blocked: string) => {
    blocks.forget(blocker);
    blocks.forget(blocked);
    // Conversations between the two close now: their 1:1 chats and their direct conversation.
    opts.chats.endBetween(blocker, blocked);
    void opts.storedRooms
      .blocked(blocker, blocked)
      .catch((err: unknown) => deps.log.warn({ err }, 'closing a blocked direct conversation failed'));
    deps.realtime.toUser(blocker, safetyEvents.blocked, { userId: blocked } satisfies Blocked);
  };
  const storedRooms = () => opts.storedRooms;
  const metInStoredRooms = storedRoomEncounters(deps.db);
  const reports = reportDesk({
    db: deps.db,
    receipts: messageReceipts(deps.secrets.jwtSecret),
    blocked: blockAdded,
    // A report ends the reporter's 1:1 chats with the reported person at once.
    reported: (reporter, reported) => opts.chats.endBetween(reporter, reported),
    queueChanged: (userId) => queueChanged('report', userId),
    rooms: {
      // Every kind on the room core reads its evidence the same way (a stream's chat while it lasts).
      group: () => roomEvidence(storedRooms, 'group'),
      direct: () => roomEvidence(storedRooms, 'direct'),
      live: () => roomEvidence(storedRooms, 'live'),
    },
    metIn: opts.people.metIn,
    keepChatPictures: (roomId, ids) =>
      storedRooms().chatPictures.keepAsEvidence(roomId, ids, new Date(Date.now() + EVIDENCE_DAYS * DAY_MS)),
    // A report weighs only if its reporter had met the person somewhere the server knows of.
    met: encounterFinder({
      chat: (a, b) => opts.people.met(a, b, 'chat'),
      group: (a, b) => metInStoredRooms.group(a, b),
      direct: (a, b) => metInStoredRooms.direct(a, b),
      live: async (a, b) => opts.live.metNow(a, b) || (await opts.people.met(a, b, 'live')),
    }),
  });
  const moderation = moderationDesk({
    db: deps.db,
    endAccount(userId, notice?: BanNotice) {
      deps.revocations.revokeUser(userId);
      // Every tab hears the rule and where to appeal before its socket closes.
      if (notice) deps.realtime.toUser(userId, safetyEvents.banned, notice);
      deps.realtime.endSession(userId, 'account_suspended').catch(onError);
    },
    restricted: (userId) => restricted.restricted(userId),
    queueChanged,
    tell(userId, notice, link) {
      void opts.notifier.notify(userId, { kind: 'moderation', words: notice, link }).catch(onError);
    },
    supportReplied(userId, reply) {
      void opts.notifier.notify(userId, { kind: 'supportReply', words: reply, link: '/contact-support' }).catch(onError);
    },
  });
  const review = reviewList(reports, onError);
  const restricted = restrictions(deps.db, deps.searchFacts);
  // A restricted account (linked to a banned one) is matched like someone in review, among them.
  const inReview = async (userId: string) => (await review.inReview(userId)) || (await restricted.restricted(userId));
  const retention = retentionJobs(
    [
      { name: 'report_evidence', run: () => reports.deleteOldEvidence() },
      { name: 'attachments_expired_or_unsent', run: () => opts.storedRooms.attachments.deleteExpiredAndUnsent() },
      { name: 'chat_pictures_past_grace', run: () => opts.storedRooms.chatPictures.sweep() },
      { name: 'ban_evasion_signals', run: () => deleteSignalsBefore(deps.db, new Date(Date.now() - SIGNAL_RETENTION_DAYS * DAY_MS)) },
    ],
    deps.log,
  );
  const moderators = attachModeratorSockets(deps.realtime.io, deps.db);
  // A 1:1 chat in which both spoke adds to both accounts' standing.
  opts.chats.rooms.on('ended', (e) => conversations.ended(e));
  // Blocks from a profile or settings: matching hears of them at once; an added one is as a report's block.
  opts.people.blocks.on('changed', ({ a, b }) => {
    blocks.forget(a);
    blocks.forget(b);
  });
  opts.people.blocks.on('added', ({ blocker, blocked }) => blockAdded(blocker, blocked));
  return {
    routes: safetyRoutes(deps, {
      reports,
      moderation,
      verifyCredentials: opts.verifyCredentials,
      evidenceFile: async (reportId, attachmentId) =>
        (await reports.holdsAttachment(reportId, attachmentId))
          ? ((await opts.storedRooms.attachments.evidence(attachmentId)) ?? (await opts.storedRooms.chatPictures.evidence(attachmentId)))
          : undefined,
    }),
    /** Users this one blocked or was blocked by. */
    blocksOf: (userId: string) => blocks.of(userId),
    /** Reported within a day by SHADOW_QUEUE_REPORTERS established people who had met them, unreviewed, or restricted: matched only among such people. */
    inReview,
    /** Linked to a banned account at sign-up, history not yet clean: no video chat. */
    restricted: (userId: string) => restricted.restricted(userId),
    close: async () => {
      await retention.close();
      review.close();
      await blocks.close();
    },
  };
}
