import { z } from 'zod';
import { text } from './text.ts';
import { APPEAL_PATH } from './constants.ts';
import type { MessageMedia } from './media.ts';

/** Why someone is reported: two taps, the first is one of these. */
export const REPORT_REASONS = ['nudity', 'harassment', 'hate', 'spam', 'underage', 'violence', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  nudity: 'Nudity or sexual content',
  harassment: 'Harassment or bullying',
  hate: 'Hate',
  spam: 'Spam or a bot',
  underage: 'Under 18',
  violence: 'Threats or violence',
  other: 'Something else',
};

/** Where the reporter met the person they report. */
export const REPORT_CONTEXTS = ['textChat', 'videoChat', 'group', 'live', 'direct', 'profile'] as const;
export type ReportContext = (typeof REPORT_CONTEXTS)[number];

/** The rules of /rules a moderator's decision names; ids are the rules page's anchors. */
export const RULES = {
  respect: 'Be kind, be real',
  adults: 'Adults only',
  nudity: 'No nudity or sexual content',
  harassment: 'No harassment or bullying',
  hate: 'No hate',
  violence: 'No threats or violence',
  spam: 'No scams, spam or advertising',
  bots: 'No bots or automation',
  illegal: 'Nothing illegal',
} as const;
export type RuleId = keyof typeof RULES;
const ruleIds = Object.keys(RULES) as [RuleId, ...RuleId[]];

/** The last messages of a conversation a report may carry, and how long evidence is kept. */
export const MAX_EVIDENCE_MESSAGES = 50;
export const EVIDENCE_DAYS = 90;
/** A snapshot of the partner's video: one JPEG, small enough to review at a glance. */
export const SNAPSHOT_MAX_BYTES = 256 * 1024;
/** A video frame is a few hundred pixels wide; a far larger picture is not one (and is costly to decode). */
export const SNAPSHOT_MAX_SIDE = 2048;
/**
 * Reports from this many different established people who had met the person, within a day, send
 * them to the separate queue until reviewed: their reports' weights add up to this many full weights.
 */
export const SHADOW_QUEUE_REPORTERS = 3;
/** A report's weight runs from 0 (counts for nothing towards review) to this (an established reporter's). */
export const FULL_REPORT_WEIGHT = 100;
/** An account counts as established (its reports weigh, its searches make topics popular) from this age and this many real chats. */
export const ESTABLISHED_ACCOUNT_DAYS = 7;
export const ESTABLISHED_REAL_CHATS = 3;
/** Where a reporter had met the person they report: a 1:1 chat, a group room, direct messages, a live stream. */
export const REPORT_ENCOUNTERS = ['chat', 'group', 'direct', 'live'] as const;
export type ReportEncounter = (typeof REPORT_ENCOUNTERS)[number];

/**
 * A message of the reported conversation as the reporter's page holds it, under the server's id
 * (as text, as its receipt names it, with the picture it carried), with its receipt.
 */
export const evidenceMessageSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a message id of Parley'),
  from: z.enum(['me', 'them']),
  text: z.string().max(65_536),
  sentAt: z.number().int().nonnegative(),
  receipt: z.string().min(1).max(64),
  /** The picture the message carried (a 1:1 chat whose members both allowed them): the report keeps it. */
  attachmentId: z.uuid({ error: 'not a picture of Parley' }).optional(),
});
export type EvidenceMessage = z.infer<typeof evidenceMessageSchema>;

/** A message of a room the server keeps (group, direct: a number) or holds for a stream's life (live: an id). */
export const roomMessageIdSchema = z.union([z.number().int().nonnegative(), z.string().min(1).max(100)], {
  message: 'a message id is a number or a short string',
});
export type RoomMessageId = z.infer<typeof roomMessageIdSchema>;

export const reportSchema = z.strictObject({
  reportedUserId: z.uuid({ message: 'reportedUserId must be a user id' }),
  context: z.enum(REPORT_CONTEXTS, { message: `context must be one of ${REPORT_CONTEXTS.join(', ')}` }),
  roomId: z.string().min(1).max(200).optional(),
  /** Group, direct and live: the message reported, if a message (not the person or the stream) is. */
  messageId: roomMessageIdSchema.optional(),
  /**
   * Group, direct and live: the messages the reporter's page shows around it. The server reads them
   * from its own copy; without them it takes the last MAX_EVIDENCE_MESSAGES around the reported message.
   */
  messageIds: z.array(roomMessageIdSchema).max(MAX_EVIDENCE_MESSAGES, `at most ${MAX_EVIDENCE_MESSAGES} messages`).optional(),
  reason: z.enum(REPORT_REASONS, { message: `reason must be one of ${REPORT_REASONS.join(', ')}` }),
  note: text().max(1000, 'note must be at most 1000 characters').optional(),
  /** Reporting also blocks, unless the reporter unticks it. */
  block: z.boolean().default(true),
  messages: z.array(evidenceMessageSchema).max(MAX_EVIDENCE_MESSAGES, `at most ${MAX_EVIDENCE_MESSAGES} messages`).default([]),
});
export type ReportBody = z.input<typeof reportSchema>;

export type ReportAnswer = { id: string; blocked: boolean; messages: number };

export const MODERATION_ACTIONS = ['dismiss', 'warn', 'suspend', 'ban'] as const;
export type ModerationActionKind = (typeof MODERATION_ACTIONS)[number];
/** Suspensions last from an hour to a year. */
export const SUSPENSION_MAX_DAYS = 365;

export const moderationDecisionSchema = z
  .strictObject({
    userId: z.uuid({ message: 'userId must be a user id' }),
    action: z.enum(MODERATION_ACTIONS, { message: `action must be one of ${MODERATION_ACTIONS.join(', ')}` }),
    rule: z.enum(ruleIds, { message: 'rule must be one of the community rules' }).optional(),
    note: text().max(2000, 'note must be at most 2000 characters').default(''),
    /** Suspensions: hours. */
    hours: z
      .number()
      .int()
      .min(1)
      .max(SUSPENSION_MAX_DAYS * 24)
      .optional(),
  })
  .refine((d) => d.action === 'dismiss' || d.rule !== undefined, { message: 'Name the rule that was broken', path: ['rule'] })
  .refine((d) => d.action !== 'suspend' || d.hours !== undefined, { message: 'Say how long the suspension lasts', path: ['hours'] });
export type ModerationDecision = z.input<typeof moderationDecisionSchema>;

export const appealSchema = z.strictObject({
  username: z.string().min(1).max(100),
  password: z.string().min(1).max(200),
  text: text().min(10, 'Tell us a little more (at least 10 characters)').max(2000, 'An appeal is at most 2000 characters'),
});
export type AppealBody = z.infer<typeof appealSchema>;

export const appealDecisionSchema = z.strictObject({
  grant: z.boolean(),
  note: text().max(2000, 'note must be at most 2000 characters').default(''),
});

/** A moderator's reply to a support request: short enough for a push notification to carry whole. */
export const SUPPORT_REPLY_MAX = 800;
export const supportReplySchema = z.strictObject({
  text: text().trim().min(2, 'Write a reply').max(SUPPORT_REPLY_MAX, `A reply is at most ${SUPPORT_REPLY_MAX} characters`),
});
/** A support request in the moderators' queue. */
export type SupportItem = { id: string; userId: string | null; email: string; topic: string; message: string; createdAt: string };

/** One reported person in the moderators' queue. */
export type QueueEntry = {
  user: { userId: string; username: string; avatar: string; createdAt: string; bannedUntil: string | null; banned: boolean };
  openReports: number;
  reporters: number;
  /** The open reports' weights, each reporter's heaviest once (review starts at SHADOW_QUEUE_REPORTERS × FULL_REPORT_WEIGHT within a day). */
  weight: number;
  latestAt: string;
  reasons: ReportReason[];
};

/** Where the server reads a report's messages from itself rather than checking the reporter's copy. */
export const SERVER_EVIDENCE_CONTEXTS = ['group', 'direct', 'live'] as const satisfies readonly ReportContext[];

/** A message of a report's evidence as a moderator sees it; `reported` marks the message the report is about. */
export type EvidenceView = {
  from: 'reporter' | 'reported' | 'other';
  sender?: string;
  text: string;
  sentAt: number;
  reported?: boolean;
  /** A picture or voice message of the message, kept with the report (GET /api/moderation/reports/:id/attachments/:attachmentId). */
  attachment?: { id: string; kind: 'image' | 'voice' };
  /** The sticker or GIF the message carried, as the server checked it when it was sent. */
  media?: MessageMedia;
};

export type ReportView = {
  id: string;
  reporter: { userId: string; username: string };
  context: ReportContext;
  reason: ReportReason;
  note: string;
  createdAt: string;
  resolvedAt: string | null;
  resolution: string | null;
  messages: EvidenceView[] | null;
  hasSnapshot: boolean;
  /** 0–FULL_REPORT_WEIGHT: what this report counted towards review. */
  weight: number;
  /** Where the reporter had met the reported person before reporting; null when never. */
  encounter: ReportEncounter | null;
};

export type ActionView = {
  id: string;
  action: string;
  rule: RuleId | null;
  note: string;
  until: string | null;
  createdAt: string;
  moderator: string | null;
};

export type AppealView = { id: string; user: { userId: string; username: string }; text: string; createdAt: string; action: ActionView };

/**
 * Another account that shares a signal with this one: the same network (an IPv4 address, or an
 * IPv6 /64), the same device fingerprint or the same browser (device cookie). A hint for the moderator, not proof: shared networks
 * and identical phones link strangers too.
 */
export type LinkedAccount = {
  user: QueueEntry['user'];
  /** Which signals link the two accounts: the network, the device fingerprint, the browser's device cookie. */
  linkedBy: Array<'network' | 'device' | 'browser'>;
  /** When the other account last used the shared signal. */
  lastSeen: string;
};

/** What a moderator sees of one user: their reports, every earlier decision and the accounts linked to it. */
export type ModerationCase = {
  user: QueueEntry['user'];
  reports: ReportView[];
  actions: ActionView[];
  linkedAccounts: LinkedAccount[];
  /** Signed up from a network or device of a banned account: text chat only, among people in review, until its history is clean. */
  restricted: boolean;
};

/** Networks and device fingerprints an account signed in from are kept this long after their last use. */
export const SIGNAL_RETENTION_DAYS = 90;
/** An account linked to a banned one at sign-up is restricted until it is this old… */
export const RESTRICTED_MIN_DAYS = 7;
/** …has had this many real conversations, and no report against it was upheld. */
export const RESTRICTED_MIN_REAL_CHATS = 10;

// Kept in constants.ts (no schemas) so the sign-in page links to it without carrying zod.
export { APPEAL_PATH };

/** Server → every socket of a user, just before they are disconnected for a ban or suspension. */
export type BanNotice = { message: string; rule: RuleId | null; ruleTitle: string | null; until: string | null; appealPath: string };

/** Why an account may not be used, with the rule and the end date, and what to do. */
export function banMessage(ban: { until: Date | null; rule: string | null }): string {
  const rule = ban.rule && ban.rule in RULES ? ` for breaking the rule “${RULES[ban.rule as RuleId]}”` : '';
  const when = ban.until
    ? `suspended until ${ban.until.toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' })} UTC`
    : 'banned';
  return `This account is ${when}${rule}. You can appeal once from the sign-in screen.`;
}

/** The notice a banned or suspended person is shown, from the decision itself. */
export function banNotice(ban: { until: Date | null; rule: string | null }): BanNotice {
  const rule = ban.rule && ban.rule in RULES ? (ban.rule as RuleId) : null;
  return {
    message: banMessage(ban),
    rule,
    ruleTitle: rule ? RULES[rule] : null,
    until: ban.until?.toISOString() ?? null,
    appealPath: APPEAL_PATH,
  };
}

/** A warning a user is shown once, at their next sign-in. */
export type Warning = { id: string; rule: RuleId | null; ruleTitle: string | null; note: string; createdAt: string };

export const safetyEvents = {
  /** Server → online moderators: a new report or appeal; the queue is fetched again. */
  queueChanged: 'moderation:queue',
  /** Server → every socket of a user being banned or suspended: BanNotice, then the disconnect. */
  banned: 'safety:banned',
  /** Server → every page of a user who blocked someone (Blocked): that person's messages are hidden at once. */
  blocked: 'safety:blocked',
} as const;
export type Blocked = { userId: string };
export const blockedCheck = z.object({ userId: z.string() });
export type QueueChanged = { kind: 'report' | 'appeal' | 'decision'; userId: string };

export const SAFETY_ERR = {
  selfReport: 'You cannot report yourself.',
  unknownUser: 'That person does not exist.',
  forgedEvidence: 'The reported messages do not match what Parley relayed. Report again from the conversation.',
  roomNeeded: 'Say which room or stream the report is about.',
  notInRoom: 'You can report only from a room or stream you are in.',
  evidenceNotInRoom: 'Some of the reported messages are not in this room. Report again from the conversation.',
  notTheSender: 'That message was written by someone else. Report the person who wrote it.',
  streamEnded: 'This stream has ended and its chat is gone. You can still report the person from their profile.',
  tooManyReports: 'You have sent many reports in a short time. Wait a little before sending another.',
  snapshotNotJpeg: 'The snapshot must be a JPEG image.',
  snapshotTooLarge: `The snapshot must be at most ${SNAPSHOT_MAX_BYTES / 1024} kB.`,
  snapshotLate: 'A snapshot can be added only to your own report, within a few minutes of sending it.',
  snapshotNotVideo: 'A snapshot can be added only to a report of a video chat you had with that person.',
  snapshotTooManyPixels: `The snapshot must be at most ${SNAPSHOT_MAX_SIDE} pixels wide and high.`,
  notYourChat: 'You can report a chat only with the person you had it with. Report someone you did not chat with from their profile.',
  notModerator: 'Only moderators can do this.',
  moderatorOnModerator: 'Moderators act on users only. Ask an admin to decide about another moderator.',
  onAdmin: 'Nobody can act on an admin in the app. An admin changes another admin from the command line.',
  appealUsed: 'You have already appealed this decision. The team will answer once it has looked at it.',
  nothingToAppeal: 'This account is not suspended, so there is nothing to appeal.',
  deviceBanned: 'New accounts cannot be made from this device.',
  harderProof: 'This sign-up needs a longer check that you are not a bot. It has started: send the form again once it is done.',
  restrictedVideo: 'New accounts like yours start with text chat only. Video chat opens after a week or so of friendly conversations.',
  recentUnderage:
    'Someone said they were under 18 from this browser less than a day ago. Parley is for adults only, so a new age cannot be given from here until tomorrow.',
  supportNoAccount: 'This request was sent without signing in, so it can only be answered by email.',
  supportAnswered: 'This request has already been answered.',
} as const;
