import { and, count, countDistinct, desc, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import {
  RULES,
  SAFETY_ERR,
  banNotice,
  type ActionView,
  type BanNotice,
  type LinkedAccount,
  type AppealView,
  type ModerationCase,
  type QueueEntry,
  type ReportReason,
  type ReportView,
  type RuleId,
  type SupportItem,
  type Warning,
  type moderationDecisionSchema,
} from '@parley/contract/safety';
import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import { activeBan, findAccountById, type Account } from '../db/accounts.ts';
import { linkedAccountIds } from '../db/accountSignals.ts';
import { appeals, moderationActions, reports, supportRequests, users } from '../db/schema.ts';
import { DomainError } from '../platform/errors.ts';
import { words, type Words } from '../platform/i18n/i18n.ts';

/** The rules' names, as the rules page shows them (contract RULES), in the words a notice uses. */
const RULE_NAMES: Record<RuleId, Words['message']> = {
  respect: /*i18n*/ { id: 'rule.respect', message: 'Be kind, be real' },
  adults: /*i18n*/ { id: 'rule.adults', message: 'Adults only' },
  nudity: /*i18n*/ { id: 'rule.nudity', message: 'No nudity or sexual content' },
  harassment: /*i18n*/ { id: 'rule.harassment', message: 'No harassment or bullying' },
  hate: /*i18n*/ { id: 'rule.hate', message: 'No hate' },
  violence: /*i18n*/ { id: 'rule.violence', message: 'No threats or violence' },
  spam: /*i18n*/ { id: 'rule.spam', message: 'No scams, spam or advertising' },
  bots: /*i18n*/ { id: 'rule.bots', message: 'No bots or automation' },
  illegal: /*i18n*/ { id: 'rule.illegal', message: 'Nothing illegal' },
};
const REPORT_REVIEWED = /*i18n*/ {
  id: 'notice.reportReviewed',
  message:
    '{outcome, select, dismissed {We reviewed your report about {name} and found no rule broken. Thank you.} other {We reviewed your report about {name} and took action. Thank you.}}',
};
const WARNED = /*i18n*/ { id: 'notice.warned', message: 'A moderator warned you.' };
const WARNED_RULE = /*i18n*/ { id: 'notice.warnedRule', message: 'A moderator warned you: {rule}.' };
const APPEAL_GRANTED = /*i18n*/ { id: 'notice.appealGranted', message: 'Your appeal was granted: your account is open again.' };
const APPEAL_REFUSED = /*i18n*/ { id: 'notice.appealRefused', message: 'Your appeal was reviewed and the decision stands.' };
const SUPPORT_REPLIED = /*i18n*/ {
  id: 'notice.supportReplied',
  message:
    '{topic, select, account {Parley support replied to your account request: {reply}} safety {Parley support replied to your safety request: {reply}} billing {Parley support replied to your billing request: {reply}} bug {Parley support replied to your bug report: {reply}} other {Parley support replied to your request: {reply}}}',
};

type Decision = z.output<typeof moderationDecisionSchema>;
type ActionRow = typeof moderationActions.$inferSelect;
const HOUR_MS = 60 * 60 * 1000;
const QUEUE_PAGE = 100;

export type ModerationDeps = {
  db: Db;
  /** Ends every socket and token of a banned or suspended user, on every process, telling them why first. */
  endAccount(userId: string, notice?: BanNotice): void;
  /** A new account linked to a banned one, not yet clean (restrictions.ts). */
  restricted?(userId: string): Promise<boolean>;
  /** Online moderators are told when the queue changed. */
  queueChanged(kind: 'report' | 'appeal' | 'decision', userId: string): void;
  /** Tells a person a moderation outcome (their report reviewed, a warning, an appeal decided). */
  tell?(userId: string, notice: Words, link: string): void;
  /** Tells the sender of a support request the moderators' reply. */
  supportReplied?(userId: string, reply: Words): void;
};

type Role = Account['role'];
const RANK: Record<Role, number> = { user: 0, moderator: 1, admin: 2 };

/**
 * Staff act only on a lower role: a moderator on users, an admin on moderators and users; nobody
 * on an equal or higher one (an admin locked out by mistake is restored from the command line).
 */
export function assertOutranks(actorRole: Role, targetRole: Role): void {
  if (RANK[actorRole] > RANK[targetRole]) return;
  if (targetRole === 'admin') throw new DomainError('forbidden', SAFETY_ERR.onAdmin, 'outranked');
  throw new DomainError('forbidden', actorRole === 'moderator' ? SAFETY_ERR.moderatorOnModerator : SAFETY_ERR.notModerator, 'outranked');
}

const iso = (d: Date | null) => d?.toISOString() ?? null;
const userView = (u: Account): QueueEntry['user'] => ({
  userId: u.id,
  username: u.username,
  avatar: u.avatar,
  createdAt: u.createdAt.toISOString(),
  banned: activeBan(u) !== undefined,
  bannedUntil: activeBan(u)?.until?.toISOString() ?? null,
});

/** The moderators' tool: the queue of reported people, their history, decisions and appeals. */
export function moderationDesk(deps: ModerationDeps) {
  const { db } = deps;

  async function actionViews(rows: ActionRow[]): Promise<ActionView[]> {
    const ids = [...new Set(rows.map((r) => r.moderatorId).filter((x): x is string => x !== null))];
    const names = new Map(
      ids.length === 0
        ? []
        : (await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids))).map((u) => [
            u.id,
            u.username,
          ]),
    );
    return rows.map((r) => ({
      id: r.id,
      action: r.action,
      rule: (r.rule as RuleId | null) ?? null,
      note: r.note,
      until: iso(r.until),
      createdAt: r.createdAt.toISOString(),
      moderator: r.moderatorId ? (names.get(r.moderatorId) ?? null) : null,
    }));
  }

  /** The acting staff member's role, read now (not from a token). */
  async function roleOf(userId: string): Promise<Role> {
    return (await findAccountById(db, userId))?.role ?? 'user';
  }

  /** The accounts of these ids, by id (the queue and a case list several people at once). */
  async function accountsById(ids: string[]) {
    return new Map((await db.select().from(users).where(inArray(users.id, ids))).map((u) => [u.id, u]));
  }

  /** Accounts sharing a network, device fingerprint or browser with this one, and which. */
  async function linkedAccounts(userId: string): Promise<LinkedAccount[]> {
    const links = await linkedAccountIds(db, userId);
    if (links.length === 0) return [];
    const accounts = await accountsById(links.map((l) => l.userId));
    return links.flatMap((l) => {
      const u = accounts.get(l.userId);
      return u ? [{ user: userView(u), linkedBy: l.linkedBy, lastSeen: l.lastSeen.toISOString() }] : [];
    });
  }

  return {
    /** Reported people with open reports: most reporters first, then the newest. */
    async queue(): Promise<QueueEntry[]> {
      const rows = await db
        .select({
          reportedId: reports.reportedId,
          open: count(),
          reporters: countDistinct(reports.reporterId),
          latest: max(reports.createdAt),
          reasons: sql<ReportReason[]>`array_agg(distinct ${reports.reason})`,
          weight: sql<number>`(select coalesce(sum(w), 0) from (select max(o.weight) as w from reports o
            where o.reported_id = ${reports.reportedId} and o.resolved_at is null group by o.reporter_id) as by_reporter)`.mapWith(Number),
        })
        .from(reports)
        .where(isNull(reports.resolvedAt))
        .groupBy(reports.reportedId)
        .orderBy(desc(countDistinct(reports.reporterId)), desc(max(reports.createdAt)))
        .limit(QUEUE_PAGE);
      if (rows.length === 0) return [];
      const accounts = await accountsById(rows.map((r) => r.reportedId));
      return rows.flatMap((r) => {
        const u = accounts.get(r.reportedId);
        return u
          ? [
              {
                user: userView(u),
                openReports: r.open,
                reporters: r.reporters,
                weight: r.weight,
                latestAt: new Date(r.latest!).toISOString(),
                reasons: r.reasons,
              },
            ]
          : [];
      });
    },

    /** One user's reports (with evidence while it is kept) and every earlier decision. */
    async caseOf(userId: string): Promise<ModerationCase> {
      const account = await findAccountById(db, userId);
      if (!account) throw new DomainError('not_found', SAFETY_ERR.unknownUser, 'unknown_user');
      const rows = await db
        .select({
          r: reports,
          reporterName: users.username,
          hasSnapshot: sql<boolean>`${reports.snapshot} is not null`,
        })
        .from(reports)
        .innerJoin(users, eq(users.id, reports.reporterId))
        .where(eq(reports.reportedId, userId))
        .orderBy(desc(reports.createdAt))
        .limit(200);
      const reportViews: ReportView[] = rows.map(({ r, reporterName, hasSnapshot }) => ({
        id: r.id,
        reporter: { userId: r.reporterId, username: reporterName },
        context: r.context,
        reason: r.reason as ReportReason,
        note: r.note,
        createdAt: r.createdAt.toISOString(),
        resolvedAt: iso(r.resolvedAt),
        resolution: r.resolution,
        messages: r.messages,
        hasSnapshot,
        weight: r.weight,
        encounter: r.encounter,
      }));
      const actions = await db
        .select()
        .from(moderationActions)
        .where(eq(moderationActions.userId, userId))
        .orderBy(desc(moderationActions.createdAt))
        .limit(200);
      return {
        user: userView(account),
        reports: reportViews,
        actions: await actionViews(actions),
        linkedAccounts: await linkedAccounts(userId),
        restricted: (await deps.restricted?.(userId)) ?? false,
      };
    },

    async snapshot(reportId: string): Promise<Buffer | undefined> {
      const [row] = await db.select({ snapshot: reports.snapshot }).from(reports).where(eq(reports.id, reportId)).limit(1);
      return row?.snapshot ?? undefined;
    },

    /** Dismiss, warn, suspend or ban: recorded, the user's open reports resolved, a ban enforced at once. */
    async decide(moderatorId: string, d: Decision): Promise<ActionView> {
      if (d.userId === moderatorId) throw new DomainError('forbidden', 'Another moderator decides on your own account.', 'own_account');
      const target = await findAccountById(db, d.userId);
      if (!target) throw new DomainError('not_found', SAFETY_ERR.unknownUser, 'unknown_user');
      assertOutranks(await roleOf(moderatorId), target.role);
      const now = new Date();
      const until = d.action === 'suspend' ? new Date(now.getTime() + d.hours! * HOUR_MS) : null;
      let reporters: string[] = [];
      const row = await db.transaction(async (tx) => {
        const [action] = await tx
          .insert(moderationActions)
          .values({ userId: d.userId, moderatorId, action: d.action, rule: d.rule ?? null, note: d.note, until })
          .returning();
        const resolved = await tx
          .update(reports)
          .set({ resolvedAt: now, resolution: d.action })
          .where(and(eq(reports.reportedId, d.userId), isNull(reports.resolvedAt)))
          .returning({ reporterId: reports.reporterId });
        reporters = [...new Set(resolved.map((r) => r.reporterId))];
        if (d.action === 'ban' || d.action === 'suspend')
          await tx
            .update(users)
            .set({ bannedAt: now, suspendedUntil: until, banRule: d.rule ?? null })
            .where(eq(users.id, d.userId));
        return action!;
      });
      if (d.action === 'ban' || d.action === 'suspend') deps.endAccount(d.userId, banNotice({ until, rule: d.rule ?? null }));
      deps.queueChanged('decision', d.userId);
      // Reporters learn their report was reviewed, not which sanction followed (that is the other person's).
      const outcome = d.action === 'dismiss' ? 'dismissed' : 'actioned';
      for (const id of reporters) deps.tell?.(id, words(REPORT_REVIEWED, { outcome, name: target.username }), '/dashboard');
      if (d.action === 'warn')
        deps.tell?.(
          d.userId,
          d.rule && d.rule in RULE_NAMES ? words(WARNED_RULE, { rule: words(RULE_NAMES[d.rule as RuleId]) }) : words(WARNED),
          '/dashboard',
        );
      return (await actionViews([row]))[0]!;
    },

    /** An appeal from the sign-in screen: once per ban or suspension. */
    async appeal(account: Account, text: string): Promise<void> {
      if (!activeBan(account)) throw new DomainError('conflict', SAFETY_ERR.nothingToAppeal, 'nothing_to_appeal');
      const [latest] = await db
        .select()
        .from(moderationActions)
        .where(and(eq(moderationActions.userId, account.id), inArray(moderationActions.action, ['ban', 'suspend'])))
        .orderBy(desc(moderationActions.createdAt))
        .limit(1);
      if (!latest) throw new DomainError('conflict', SAFETY_ERR.nothingToAppeal, 'nothing_to_appeal');
      const inserted = await db
        .insert(appeals)
        .values({ userId: account.id, actionId: latest.id, text })
        .onConflictDoNothing()
        .returning({ id: appeals.id });
      if (inserted.length === 0) throw new DomainError('conflict', SAFETY_ERR.appealUsed, 'appeal_used');
      deps.queueChanged('appeal', account.id);
    },

    async openAppeals(): Promise<AppealView[]> {
      const rows = await db
        .select({ a: appeals, username: users.username, action: moderationActions })
        .from(appeals)
        .innerJoin(users, eq(users.id, appeals.userId))
        .innerJoin(moderationActions, eq(moderationActions.id, appeals.actionId))
        .where(isNull(appeals.decidedAt))
        .orderBy(appeals.createdAt)
        .limit(QUEUE_PAGE);
      const actions = await actionViews(rows.map((r) => r.action));
      return rows.map((r, i) => ({
        id: r.a.id,
        user: { userId: r.a.userId, username: r.username },
        text: r.a.text,
        createdAt: r.a.createdAt.toISOString(),
        action: actions[i]!,
      }));
    },

    /** Granting lifts the ban or suspension; either way the decision is recorded. */
    async decideAppeal(moderatorId: string, appealId: string, grant: boolean, note: string): Promise<void> {
      const [open] = await db
        .select({ role: users.role })
        .from(appeals)
        .innerJoin(users, eq(users.id, appeals.userId))
        .where(and(eq(appeals.id, appealId), isNull(appeals.decidedAt)));
      if (!open) throw new DomainError('not_found', 'No such open appeal.', 'not_found');
      assertOutranks(await roleOf(moderatorId), open.role);
      const decided = await db.transaction(async (tx) => {
        const [appeal] = await tx
          .update(appeals)
          .set({ decidedAt: new Date() })
          .where(and(eq(appeals.id, appealId), isNull(appeals.decidedAt)))
          .returning();
        if (!appeal) return undefined;
        await tx
          .insert(moderationActions)
          .values({ userId: appeal.userId, moderatorId, action: grant ? 'appealGranted' : 'appealRefused', note });
        if (grant) await tx.update(users).set({ bannedAt: null, suspendedUntil: null, banRule: null }).where(eq(users.id, appeal.userId));
        return appeal;
      });
      if (!decided) throw new DomainError('not_found', 'No such open appeal.', 'not_found');
      deps.queueChanged('decision', decided.userId);
      deps.tell?.(decided.userId, words(grant ? APPEAL_GRANTED : APPEAL_REFUSED), '/dashboard');
    },

    /** Warnings the user has not seen yet, shown at their next sign-in. */
    async warningsFor(userId: string): Promise<Warning[]> {
      const rows = await db
        .select()
        .from(moderationActions)
        .where(and(eq(moderationActions.userId, userId), eq(moderationActions.action, 'warn'), isNull(moderationActions.seenAt)))
        .orderBy(moderationActions.createdAt);
      return rows.map((r) => ({
        id: r.id,
        rule: (r.rule as RuleId | null) ?? null,
        ruleTitle: r.rule ? (RULES[r.rule as RuleId] ?? null) : null,
        note: r.note,
        createdAt: r.createdAt.toISOString(),
      }));
    },

    /** Only the warned user's own warning can be marked seen (another's id matches nothing). */
    async warningSeen(userId: string, warningId: string): Promise<boolean> {
      const done = await db
        .update(moderationActions)
        .set({ seenAt: new Date() })
        .where(and(eq(moderationActions.id, warningId), eq(moderationActions.userId, userId), eq(moderationActions.action, 'warn')))
        .returning({ id: moderationActions.id });
      return done.length > 0;
    },

    /**
     * Answers a support request in the app: the reply is stored, the request handled, and its
     * sender notified. Only once, and only for a request sent from an account.
     */
    async supportReply(moderatorId: string, id: string, text: string): Promise<void> {
      const [request] = await db
        .select({ userId: supportRequests.userId, topic: supportRequests.topic, repliedAt: supportRequests.repliedAt })
        .from(supportRequests)
        .where(eq(supportRequests.id, id));
      if (!request) throw new DomainError('not_found', 'No such support request.', 'not_found');
      if (!request.userId) throw new DomainError('conflict', SAFETY_ERR.supportNoAccount, 'no_account');
      const done = await db
        .update(supportRequests)
        .set({ reply: text, repliedAt: new Date(), repliedBy: moderatorId, handledAt: sql`coalesce(${supportRequests.handledAt}, now())` })
        .where(and(eq(supportRequests.id, id), isNull(supportRequests.repliedAt)))
        .returning({ id: supportRequests.id });
      if (done.length === 0) throw new DomainError('conflict', SAFETY_ERR.supportAnswered, 'already_answered');
      deps.supportReplied?.(request.userId, words(SUPPORT_REPLIED, { topic: request.topic, reply: text }));
    },

    async supportQueue(): Promise<SupportItem[]> {
      const rows = await db
        .select()
        .from(supportRequests)
        .where(isNull(supportRequests.handledAt))
        .orderBy(desc(supportRequests.createdAt))
        .limit(QUEUE_PAGE);
      return rows.map((r) => ({
        id: r.id,
        userId: r.userId,
        email: r.email,
        topic: r.topic,
        message: r.message,
        createdAt: r.createdAt.toISOString(),
      }));
    },

    async supportHandled(id: string): Promise<boolean> {
      const done = await db
        .update(supportRequests)
        .set({ handledAt: new Date() })
        .where(and(eq(supportRequests.id, id), isNull(supportRequests.handledAt)))
        .returning({ id: supportRequests.id });
      return done.length > 0;
    },

    /** Moderator role from the admin's tool: only on accounts below the admin's role; recorded in the audit log. */
    async setRole(adminId: string, username: string, role: 'user' | 'moderator'): Promise<void> {
      const [target] = await db
        .select({ id: users.id, role: users.role })
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`)
        .limit(1);
      if (!target) throw new DomainError('not_found', SAFETY_ERR.unknownUser, 'unknown_user');
      const actorRole = await roleOf(adminId);
      assertOutranks(actorRole, target.role);
      assertOutranks(actorRole, role);
      // Changed only while still the role checked, so a concurrent promotion is not overwritten.
      const done = await db
        .update(users)
        .set({ role })
        .where(and(eq(users.id, target.id), eq(users.role, target.role)))
        .returning({ id: users.id });
      if (done.length === 0) throw new DomainError('conflict', 'That account changed meanwhile. Try again.', 'conflict');
      await db.insert(moderationActions).values({ userId: target.id, moderatorId: adminId, action: 'role', note: `role: ${role}` });
    },
  };
}

export type ModerationDesk = ReturnType<typeof moderationDesk>;
