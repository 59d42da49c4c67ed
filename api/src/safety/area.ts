import { SHADOW_QUEUE_REPORTERS } from '@parley/contract/safety';
import type { AppDeps, HeldEvidenceSources } from '../deps.ts';
import type { Account } from '../db/accounts.ts';
import { messageReceipts } from '../platform/receipts.ts';
import type { Realtime } from '../realtime/server.ts';
import { blockLists } from './blocks.ts';
import { moderationDesk } from './moderation.ts';
import { reportDesk } from './reports.ts';
import { safetyRoutes } from './routes.ts';
import { attachModeratorSockets } from './socket.ts';
import { conversationCounter, type EndedConversation } from './standing.ts';

/** How long a user's review state is reused by searches before it is read again. */
const REVIEW_CACHE_MS = 30_000;
/** How often each process deletes evidence older than EVIDENCE_DAYS. */
const EVIDENCE_SWEEP_MS = 60 * 60 * 1000;

/** The safety area as server.ts composes it: blocks, reports, the moderators' queue, bans and appeals. */
export function createSafety(
  deps: AppDeps,
  opts: {
    verifyCredentials(username: string, password: string): Promise<Account | undefined>;
    /** Group rooms, direct messages and live chats, whose messages reports read from the server's copy. */
    rooms: HeldEvidenceSources;
  },
) {
  const onError = (err: unknown) => deps.log.error({ err }, 'safety background step failed');
  const blocks = blockLists(deps.db, onError);
  const conversations = conversationCounter(deps.db, onError);
  let moderators: ReturnType<typeof attachModeratorSockets> | undefined;
  const queueChanged = (kind: 'report' | 'appeal' | 'decision', userId: string) => moderators?.queueChanged({ kind, userId });
  const reports = reportDesk({
    db: deps.db,
    receipts: messageReceipts(deps.secrets.jwtSecret),
    blocked(blocker, blocked) {
      blocks.forget(blocker);
      blocks.forget(blocked);
    },
    queueChanged: (userId) => queueChanged('report', userId),
    rooms: opts.rooms,
  });
  const moderation = moderationDesk({
    db: deps.db,
    endAccount(userId) {
      deps.revocations.revokeUser(userId);
      deps.realtime?.endSession(userId, 'account_suspended').catch(onError);
    },
    queueChanged,
    tell(userId, text, link) {
      void deps.notifier?.notify(userId, { kind: 'moderation', text, link }).catch(onError);
    },
  });
  // Read once per search at most every REVIEW_CACHE_MS per user: a search must not wait on the database each time.
  const review = new Map<string, { at: number; pending: Promise<boolean> }>();
  const inReview = (userId: string): Promise<boolean> => {
    const now = Date.now();
    const hit = review.get(userId);
    if (hit && now - hit.at < REVIEW_CACHE_MS) return hit.pending;
    const pending = reports.recentReporters(userId).then(
      (n) => n >= SHADOW_QUEUE_REPORTERS,
      (err: unknown) => {
        onError(err);
        return false;
      },
    );
    review.set(userId, { at: now, pending });
    if (review.size > 50_000) for (const [id, e] of review) if (now - e.at >= REVIEW_CACHE_MS) review.delete(id);
    return pending;
  };
  const sweep = setInterval(() => void reports.deleteOldEvidence().catch(onError), EVIDENCE_SWEEP_MS);
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
    /** Reported by SHADOW_QUEUE_REPORTERS people within a day, unreviewed: matched only among such people. */
    inReview,
    /** A block between two users was added or removed in this process: both are looked up again at once. */
    blocksChanged: (a: string, b: string) => {
      blocks.forget(a);
      blocks.forget(b);
    },
    close: async () => {
      clearInterval(sweep);
      await blocks.close();
    },
  };
}
