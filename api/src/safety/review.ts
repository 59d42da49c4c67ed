import { FULL_REPORT_WEIGHT, SHADOW_QUEUE_REPORTERS } from '@parley/contract/safety';
import type { ReportDesk } from './reports.ts';

/** How often each process reads who is in review, whichever process took the reports. */
export const REVIEW_POLL_MS = 5_000;
/** Three established reporters who had met the person, or more who weigh less. */
export const REVIEW_WEIGHT = SHADOW_QUEUE_REPORTERS * FULL_REPORT_WEIGHT;

/**
 * Who is in review (unresolved reports of the last day weighing REVIEW_WEIGHT), held in
 * memory: a search asks without a query. Every REVIEW_POLL_MS one query reads the whole set; a
 * report or decision made in this process re-reads its user at once (`changed`), and a search
 * for that user waits for that answer.
 *
 * A re-read that started after the running look began is newer than it, so that look leaves the
 * user as the re-read found them; a re-read that a later look overtook is dropped. Until the
 * first look has answered (or while looks fail), each search asks for its user alone.
 */
export function reviewList(
  reports: Pick<ReportDesk, 'recentWeight' | 'inReviewIds'>,
  onError: (err: unknown) => void,
  pollMs = REVIEW_POLL_MS,
) {
  let known: Set<string> | undefined;
  /** Bumped as each look or re-read starts. */
  let clock = 0;
  let lookStartedAt = 0;
  /** Users re-read in this process: when the re-read started, its answer, and the wait on it. */
  const reread = new Map<string, { at: number; pending: Promise<boolean>; yes?: boolean }>();
  let looking: Promise<void> | undefined;

  const alone = (userId: string) =>
    reports.recentWeight(userId).then(
      (weight) => weight >= REVIEW_WEIGHT,
      (err: unknown) => {
        onError(err);
        return false;
      },
    );

  const look = () => {
    if (looking) return looking;
    const startedAt = ++clock;
    lookStartedAt = startedAt;
    looking = reports
      .inReviewIds(REVIEW_WEIGHT)
      .then((ids) => {
        const next = new Set(ids);
        for (const [userId, r] of reread) {
          if (r.at < startedAt) {
            reread.delete(userId);
            continue;
          }
          // Newer than this look: keep what the re-read found (one still running applies itself).
          if (r.yes === true) next.add(userId);
          else if (r.yes === false) next.delete(userId);
        }
        known = next;
      }, onError)
      .finally(() => (looking = undefined));
    return looking;
  };
  const first = look();
  const timer = setInterval(() => void look(), pollMs);
  timer.unref();

  return {
    async inReview(userId: string): Promise<boolean> {
      const r = reread.get(userId);
      if (r) return r.pending;
      if (!known) {
        await first;
        if (!known) return alone(userId);
      }
      return known.has(userId);
    },
    /** A report on this user, or a decision about them, was made in this process. */
    changed(userId: string) {
      const at = ++clock;
      const entry: { at: number; pending: Promise<boolean>; yes?: boolean } = { at, pending: Promise.resolve(false) };
      entry.pending = alone(userId).then((yes) => {
        entry.yes = yes;
        // A look that started after this re-read has newer news of this user.
        if (reread.get(userId) === entry && lookStartedAt < at && known) {
          if (yes) known.add(userId);
          else known.delete(userId);
        }
        return yes;
      });
      reread.set(userId, entry);
    },
    close: () => clearInterval(timer),
  };
}
