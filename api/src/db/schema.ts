import { sql } from 'drizzle-orm';
import { REPORT_CONTEXTS, REPORT_ENCOUNTERS, type EvidenceView } from '@parley/contract/safety';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

// Message search's column types (drizzle has none of its own for them).
const regconfig = customType<{ data: string }>({ dataType: () => 'regconfig' });
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
// PGlite hands bytea back as a Uint8Array, node-postgres as a Buffer: the schema always gives a Buffer.
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    passwordHash: text('password_hash'),
    googleId: text('google_id'),
    /** The linked Google account's address, shown to its owner in Settings only. */
    googleEmail: text('google_email'),
    avatar: text('avatar').notNull().default(''),
    age: integer('age'),
    gender: text('gender', { enum: ['male', 'female', 'other'] }),
    isVerified: boolean('is_verified').notNull().default(false),
    premiumUser: text('premium_user').notNull().default('free tier'),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    /** `moderator` may hide topics (and, later, review reports). */
    role: text('role', { enum: ['user', 'moderator', 'admin'] })
      .notNull()
      .default('user'),
    /** 1:1 chats in which both people said something: part of an account's standing. */
    realChats: integer('real_chats').notNull().default(0),
    /** Set when the account answered the age gate under age: it cannot simply answer again. */
    ageGateFailedAt: timestamp('age_gate_failed_at', { withTimezone: true }),
    /** With bannedAt: the end of a suspension; null with bannedAt is a ban without end. */
    suspendedUntil: timestamp('suspended_until', { withTimezone: true }),
    /** The rule of /rules a ban or suspension was for, shown at sign-in. */
    banRule: text('ban_rule'),
    hobbies: jsonb('hobbies').$type<string[]>().notNull().default([]),
    /** Chosen by the user; without it the country of the connecting address is used. */
    country: text('country'),
    /** ISO 639-1 codes the person speaks, and the ones they are learning (matching prefers a shared language). */
    languages: jsonb('languages').$type<string[]>().notNull().default([]),
    learning: jsonb('learning').$type<string[]>().notNull().default([]),
    /** Profile fields shown to friends only (contract PRIVATE_FIELDS). */
    privateFields: jsonb('private_fields').$type<string[]>().notNull().default([]),
    /** The chosen chat background: a shipped id or `upload:<imageId>`. */
    background: text('background'),
    /** A premium member's chosen name colour (contract NAME_COLOURS); shown only while premium. */
    nameColour: text('name_colour'),
    /** Settings as the contract's settingsSchema reads them (defaults fill what is missing). */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    ratingUp: integer('rating_up').notNull().default(0),
    ratingDown: integer('rating_down').notNull().default(0),
    /** A deleted account keeps only its id and username, which is freed USERNAME_RESERVED_DAYS later. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Signed up from the network or device of a banned account: restricted from then until its history is clean. */
    restrictedAt: timestamp('restricted_at', { withTimezone: true }),
    /** A verified address (password reset, sign-in alerts); never shown to anyone else. */
    email: text('email'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** An address given but not yet verified by its link. */
    pendingEmail: text('pending_email'),
    /** The last change of username: one a month. */
    usernameChangedAt: timestamp('username_changed_at', { withTimezone: true }),
    /** Two-factor sign-in turned on (by a confirmed authenticator app or passkeys); null: off. */
    twoFactorAt: timestamp('two_factor_at', { withTimezone: true }),
  },
  (t) => [
    // Usernames are unique regardless of case.
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_google_id_idx').on(t.googleId),
    // Each API process reads the bans made since its last look (auth/revocations.ts).
    index('users_banned_at_idx')
      .on(t.bannedAt)
      .where(sql`${t.bannedAt} is not null`),
    // A password reset asked by address finds its accounts.
    index('users_email_lower_idx')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.email} is not null`),
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_idx').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    // An account's sign-ins: the devices list, signing out all or one of them.
    index('refresh_tokens_user_idx').on(t.userId),
    // Each API process reads the sign-ins ended since its last look (auth/revocations.ts).
    index('refresh_tokens_revoked_at_idx')
      .on(t.revokedAt)
      .where(sql`${t.revokedAt} is not null`),
  ],
);

/** An account's passkeys (WebAuthn credentials): sign-in without a password, or a second factor. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the authenticator names it. */
    credentialId: text('credential_id').notNull(),
    publicKey: bytea('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential_id_idx').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/** An account's authenticator-app secret: on once confirmed by a code; the last step used is refused again. */
export const totpFactors = pgTable('totp_factors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Sealed with a key derived from the server's secret (auth/factors/totp.ts). */
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One-time recovery codes, stored hashed; a new set replaces the old. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_idx').on(t.userId, t.codeHash)],
);

/** WebAuthn challenges: single-use, short-lived, for one purpose (and one account when known). */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'login', 'second_factor'] }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expiresAt)],
);

/** A user who blocked another is never matched with them again, either way round. */
export const userBlocks = pgTable(
  'user_blocks',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index('user_blocks_blocked_idx').on(t.blockedId),
    // Each API process reads the blocks created since its last look (safety/blocks.ts).
    index('user_blocks_created_at_idx').on(t.createdAt),
  ],
);

export const supportRequests = pgTable('support_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  email: text('email').notNull(),
  topic: text('topic').notNull(),
  message: text('message').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** When a moderator marked it handled (the support queue shows the rest). */
  handledAt: timestamp('handled_at', { withTimezone: true }),
  /** A moderator's answer in the app (the sender is notified), when and by whom. */
  reply: text('reply'),
  repliedAt: timestamp('replied_at', { withTimezone: true }),
  repliedBy: uuid('replied_by').references(() => users.id, { onDelete: 'set null' }),
});

/** Topics people searched with, for the "popular topics" suggestions. */

/**
 * How often each topic was searched, per minute: "popular topics" sums the last hour. One row per
 * topic and minute however many searches, so the table stays small and writes stay cheap.
 */
export const topicSearchCounts = pgTable(
  'topic_search_counts',
  {
    topic: text('topic').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    searches: integer('searches').notNull(),
  },
  (t) => [primaryKey({ columns: [t.topic, t.minute] }), index('topic_search_counts_minute_idx').on(t.minute)],
);

/** Topics moderators took out of the popular suggestions. */
export const hiddenTopics = pgTable('hidden_topics', {
  topic: text('topic').primaryKey(),
  hiddenBy: uuid('hidden_by').references(() => users.id, { onDelete: 'set null' }),
  hiddenAt: timestamp('hidden_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Two people who are friends, one row per pair with the smaller id first, so "are A and B
 * friends" is one primary-key look-up whichever way round it is asked.
 */
export const friendships = pgTable(
  'friendships',
  {
    userLow: uuid('user_low')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userHigh: uuid('user_high')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userLow, t.userHigh] }), index('friendships_user_high_idx').on(t.userHigh)],
);

/** The Stripe customer of a user, made at their first checkout. */
export const billingCustomers = pgTable('billing_customers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeCustomerId: text('stripe_customer_id').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A subscription as Stripe last described it: written only from verified webhooks, after
 * reading the subscription's current state back from Stripe (so order of delivery never matters).
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    stripeSubscriptionId: text('stripe_subscription_id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tier: text('tier', { enum: ['plus', 'pro'] }).notNull(),
    billingCycle: text('billing_cycle', { enum: ['monthly', 'yearly'] }).notNull(),
    /** Stripe's status: active, trialing, past_due, canceled, unpaid, incomplete, … */
    status: text('status').notNull(),
    /** Set when the member cancelled: perks last until periodEnd. */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    /** After a failed renewal, perks last until then while Stripe retries. */
    graceUntil: timestamp('grace_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('subscriptions_user_idx').on(t.userId)],
);

/** Webhook events already handled: each is processed once, however often Stripe delivers it. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Checkout sessions this server opened, so /payment/success can show what a webhook confirmed. */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['subscription', 'donation'] }).notNull(),
    tier: text('tier', { enum: ['plus', 'pro'] }),
    billingCycle: text('billing_cycle', { enum: ['monthly', 'yearly'] }),
    /** Donations: in the currency's smallest unit, as Stripe counts. */
    amount: integer('amount'),
    currency: text('currency'),
    publicThanks: boolean('public_thanks').notNull().default(false),
    state: text('state', { enum: ['open', 'complete', 'expired', 'refunded'] })
      .notNull()
      .default('open'),
    paymentIntentId: text('payment_intent_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('checkout_sessions_user_idx').on(t.userId), index('checkout_sessions_payment_intent_idx').on(t.paymentIntentId)],
);

/** A person's report of another, with the evidence their client attached and the server checked. */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reportedId: uuid('reported_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    context: text('context', { enum: REPORT_CONTEXTS }).notNull(),
    roomId: text('room_id'),
    reason: text('reason').notNull(),
    note: text('note').notNull().default(''),
    /** The conversation's last messages as the reporter saw them, each verified against its receipt. */
    messages: jsonb('messages').$type<EvidenceView[]>(),
    /** A JPEG of the partner's video at the report. */
    snapshot: bytea('snapshot'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when a moderator decided on the reported user (any action, dismiss included). */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolution: text('resolution'),
    /** How much the report counts towards review (0–100), from the reporter's standing when it was filed. */
    weight: integer('weight').notNull().default(0),
    /** Where the reporter had met the reported person before the report; null when they never had. */
    encounter: text('encounter', { enum: REPORT_ENCOUNTERS }),
  },
  (t) => [
    index('reports_open_idx')
      .on(t.reportedId, t.createdAt)
      .where(sql`${t.resolvedAt} is null`),
    index('reports_reported_idx').on(t.reportedId),
    index('reports_created_at_idx').on(t.createdAt),
    // A new report weighs its reporter's earlier ones.
    index('reports_reporter_idx').on(t.reporterId),
  ],
);

/** Every moderation decision (the audit log); a warning is shown to its user once, at next sign-in. */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    moderatorId: uuid('moderator_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', { enum: ['dismiss', 'warn', 'suspend', 'ban', 'lift', 'appealGranted', 'appealRefused', 'role'] }).notNull(),
    rule: text('rule'),
    note: text('note').notNull().default(''),
    until: timestamp('until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Warnings: when the user saw it. */
    seenAt: timestamp('seen_at', { withTimezone: true }),
  },
  (t) => [index('moderation_actions_user_idx').on(t.userId, t.createdAt)],
);

/** One appeal per ban or suspension, from the sign-in screen. */
export const appeals = pgTable(
  'appeals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actionId: uuid('action_id')
      .notNull()
      .references(() => moderationActions.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('appeals_action_idx').on(t.actionId)],
);

/** Browsers (a long-lived device cookie) each account used: a ban holds against new accounts from them. */
export const accountDevices = pgTable(
  'account_devices',
  {
    deviceId: text('device_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.userId] }), index('account_devices_user_idx').on(t.userId)],
);

/**
 * Networks (`network`: an IPv4 address or an IPv6 /64) and device fingerprints (`device`) each
 * account signed in from: a ban holds against new accounts linked by them, and moderators see
 * linked accounts. Deleted SIGNAL_RETENTION_DAYS after `lastSeen`.
 */
export const accountSignals = pgTable(
  'account_signals',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['network', 'device'] }).notNull(),
    value: text('value').notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind, t.value] }),
    index('account_signals_value_idx').on(t.kind, t.value),
    index('account_signals_last_seen_idx').on(t.lastSeen),
  ],
);

/**
 * A stored room (kinds `group` and `direct`). `lastMessageId` hands out message ids: raising it
 * and inserting the message happen in one statement, so ids increase per room without gaps.
 * A direct room has `directKey` (the two user ids, smaller first): one room per pair.
 * A `channel` is no conversation: it keeps a broadcaster's moderation across their streams
 * (moderators in room_members, bans, mutes, slow mode and the record), one per broadcaster (`channelOf`).
 */
export const storedRooms = pgTable(
  'stored_rooms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['group', 'direct', 'channel'] }).notNull(),
    name: text('name').notNull().default(''),
    category: text('category').notNull().default(''),
    description: text('description').notNull().default(''),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    official: boolean('official').notNull().default(false),
    visibility: text('visibility', { enum: ['public', 'invite'] })
      .notNull()
      .default('public'),
    inviteCode: text('invite_code'),
    capacity: integer('capacity').notNull().default(200),
    slowModeS: integer('slow_mode_s').notNull().default(0),
    readOnly: boolean('read_only').notNull().default(false),
    directKey: text('direct_key'),
    lastMessageId: bigint('last_message_id', { mode: 'number' }).notNull().default(0),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    channelOf: uuid('channel_of').references(() => users.id, { onDelete: 'cascade' }),
    /** A group's language (ISO 639-1), which the room list filters by; null: not said. */
    language: text('language'),
  },
  (t) => [
    uniqueIndex('stored_rooms_direct_key_idx').on(t.directKey),
    uniqueIndex('stored_rooms_channel_of_idx').on(t.channelOf),
    index('stored_rooms_kind_category_idx').on(t.kind, t.category),
    index('stored_rooms_owner_idx').on(t.ownerId),
  ],
);

/** Who belongs to a stored room, their role and how far they have read. */
export const roomMembers = pgTable(
  'room_members',
  {
    roomId: uuid('room_id')
      .notNull()
      .references(() => storedRooms.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'moderator', 'member'] })
      .notNull()
      .default('member'),
    lastReadId: bigint('last_read_id', { mode: 'number' }).notNull().default(0),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] }), index('room_members_user_idx').on(t.userId)],
);

/**
 * A member's place in a thread of a group room: whether they follow it (notified of its replies;
 * posting in it follows it) and how far they have read it.
 */
export const roomThreadMembers = pgTable(
  'room_thread_members',
  {
    roomId: uuid('room_id')
      .notNull()
      .references(() => storedRooms.id, { onDelete: 'cascade' }),
    rootId: bigint('root_id', { mode: 'number' }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    following: boolean('following').notNull().default(true),
    lastReadId: bigint('last_read_id', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.rootId, t.userId] }), index('room_thread_members_user_idx').on(t.userId)],
);

/**
 * Who is muted in a group room, until when. Apart from membership, so that leaving, a kick and
 * joining again do not lift a mute.
 */
export const roomMutes = pgTable(
  'room_mutes',
  {
    roomId: uuid('room_id')
      .notNull()
      .references(() => storedRooms.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mutedUntil: timestamp('muted_until', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] })],
);

/** People a group room's moderators banned: they cannot join again. */
export const roomBans = pgTable(
  'room_bans',
  {
    roomId: uuid('room_id')
      .notNull()
      .references(() => storedRooms.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bannedBy: uuid('banned_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] })],
);

/** A room's messages; (room, id) is the key and the order pages are read in. */
export const roomMessages = pgTable(
  'room_messages',
  {
    roomId: uuid('room_id')
      .notNull()
      .references(() => storedRooms.id, { onDelete: 'cascade' }),
    id: bigint('id', { mode: 'number' }).notNull(),
    senderId: uuid('sender_id').references(() => users.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    clientId: text('client_id'),
    replyTo: bigint('reply_to', { mode: 'number' }),
    mentions: uuid('mentions')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** The custom emoji shortcodes the server checked its sender owned when it was written. */
    emoji: text('emoji').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by'),
    /** The text search configuration of the room's language when it was written (room_search_config()). */
    searchConfig: regconfig('search_config')
      .notNull()
      .default(sql`'simple'::regconfig`),
    /** Its words for message search (rooms/search.ts), kept by PostgreSQL as the text changes. */
    search: tsvector('search').generatedAlwaysAs(sql`to_tsvector(search_config, text)`),
    /** Its picture or voice message (room_attachments), kept while the message is. */
    attachmentId: uuid('attachment_id'),
    /** A sticker or a GIF the server checked its sender may send: its kind, id, size and alt text (the address is built from the id). */
    media: jsonb('media').$type<{ kind: 'sticker' | 'gif'; id: string; width: number; height: number; alt: string }>(),
    /** A reply in a thread: the id of the room message the thread hangs from (its root); null in the room itself. */
    threadId: bigint('thread_id', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.roomId, t.id] }),
    index('room_messages_search_idx').using('gin', t.search),
    index('room_messages_thread_idx')
      .on(t.roomId, t.threadId, t.id)
      .where(sql`${t.threadId} is not null`),
    // A message sent again after a lost acknowledgement is found by the id its client gave it.
    index('room_messages_client_idx').on(t.roomId, t.clientId),
    // Message search reads a room's messages by time (rooms/search.ts); its media apart; a sender's messages.
    index('room_messages_room_time_idx').on(t.roomId, t.createdAt),
    index('room_messages_media_idx')
      .on(t.roomId, t.createdAt)
      .where(sql`${t.attachmentId} is not null or ${t.media} is not null`),
    index('room_messages_sender_idx').on(t.senderId, t.createdAt),
  ],
);

/** One row per person, message and emoji. */
export const roomReactions = pgTable(
  'room_reactions',
  {
    roomId: uuid('room_id').notNull(),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    emoji: text('emoji').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.roomId, t.messageId, t.userId, t.emoji] }),
    foreignKey({ columns: [t.roomId, t.messageId], foreignColumns: [roomMessages.roomId, roomMessages.id] }).onDelete('cascade'),
  ],
);

/** What a group room's owner and moderators did: who, what, to whom, when. */
export const roomModerationLog = pgTable(
  'room_moderation_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roomId: uuid('room_id')
      .notNull()
      .references(() => storedRooms.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    detail: text('detail').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('room_moderation_log_room_idx').on(t.roomId, t.createdAt)],
);

/** A friend request waiting for an answer; answered ones are deleted (a friendship row records acceptance). */
export const friendRequests = pgTable(
  'friend_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fromId: uuid('from_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    toId: uuid('to_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('friend_requests_pair_idx').on(t.fromId, t.toId), index('friend_requests_to_idx').on(t.toId)],
);

/** Who met whom in a 1:1 chat room (recent partners, the proof a rating needs), and whose live stream someone watched. */
export const encounters = pgTable(
  'encounters',
  {
    roomId: text('room_id').notNull(),
    // No foreign keys: a log written at every match, where each would cost a check and a lock on
    // the user's row; deleting an account deletes its encounters itself (people/account.ts).
    userId: uuid('user_id').notNull(),
    partnerId: uuid('partner_id').notNull(),
    /** `live`: the user watched the partner's stream (roomId is the stream's). */
    kind: text('kind', { enum: ['textChat', 'videoChat', 'live'] }).notNull(),
    metAt: timestamp('met_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] }), index('encounters_user_met_idx').on(t.userId, t.metAt)],
);

/** One thumbs up or down per rater and room; users.rating_up/down hold the aggregate. */
export const ratings = pgTable(
  'ratings',
  {
    roomId: text('room_id').notNull(),
    raterId: uuid('rater_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ratedId: uuid('rated_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    up: boolean('up').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.raterId] })],
);

/** Resized images (avatars, uploaded backgrounds), one row per size, served by /api/images. */
export const images = pgTable(
  'images',
  {
    id: uuid('id').notNull(),
    variant: text('variant', { enum: ['256', '64', 'bg'] }).notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['avatar', 'background'] }).notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.id, t.variant] }), index('images_owner_idx').on(t.ownerId, t.purpose)],
);

/**
 * Pictures and voice messages of stored rooms, as the server re-encoded or checked them: uploaded
 * first, then claimed by one message (`client_id`, the sender's id for it). Deleting the message
 * deletes the row, unless a report holds it as evidence until `evidence_until`.
 */
export const roomAttachments = pgTable(
  'room_attachments',
  {
    id: uuid('id').primaryKey(),
    roomId: uuid('room_id')
      .notNull()
      .references(() => storedRooms.id, { onDelete: 'cascade' }),
    uploaderId: uuid('uploader_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['image', 'voice'] }).notNull(),
    mime: text('mime').notNull(),
    /** Null while a picture's full size is still being encoded (its thumbnail is there). */
    bytes: bytea('bytes'),
    thumb: bytea('thumb'),
    size: integer('size').notNull(),
    width: integer('width'),
    height: integer('height'),
    durationMs: integer('duration_ms'),
    clientId: text('client_id'),
    evidenceUntil: timestamp('evidence_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('room_attachments_uploader_idx').on(t.uploaderId), index('room_attachments_room_idx').on(t.roomId)],
);

/**
 * Pictures of 1:1 chats with strangers: no stored room to belong to (the chat is held in memory),
 * kept while the chat lasts and a short grace after (`delete_after`, set when it ends), or longer
 * as a report's evidence (`evidence_until`).
 */
export const chatPictures = pgTable(
  'chat_pictures',
  {
    id: uuid('id').primaryKey(),
    roomId: uuid('room_id').notNull(),
    uploaderId: uuid('uploader_id').references(() => users.id, { onDelete: 'set null' }),
    /** Null while the full size is still being encoded. */
    bytes: bytea('bytes'),
    thumb: bytea('thumb').notNull(),
    size: integer('size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    clientId: text('client_id'),
    deleteAfter: timestamp('delete_after', { withTimezone: true }),
    evidenceUntil: timestamp('evidence_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_pictures_room_idx').on(t.roomId), index('chat_pictures_uploader_idx').on(t.uploaderId)],
);

export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    text: text('text').notNull(),
    link: text('link').notNull(),
    /** Unread notifications with the same key are one (a direct conversation's messages). */
    coalesceKey: text('coalesce_key'),
    count: integer('count').notNull().default(1),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_id_idx').on(t.userId, t.id),
    uniqueIndex('notifications_unread_key_idx')
      .on(t.userId, t.coalesceKey)
      .where(sql`${t.readAt} is null and ${t.coalesceKey} is not null`),
  ],
);

/** A device's Web Push subscription; `sid` is the sign-in that made it, ended with it. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    sid: text('sid'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Sends in a row that failed (not a refusal, which deletes at once), and since when; a success clears both. */
    failures: integer('failures').notNull().default(0),
    failingSince: timestamp('failing_since', { withTimezone: true }),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
);

/**
 * A user's XP, gold and daily streak, changed only by the server from events it saw (missions/)
 * and purchases (shop/). Gold can never go below zero, whatever the order of concurrent writes.
 */
export const wallets = pgTable(
  'wallets',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    xp: integer('xp').notNull().default(0),
    gold: integer('gold').notNull().default(0),
    level: integer('level').notNull().default(1),
    /** The IANA zone the user's days are counted in, as their device last reported it. */
    timeZone: text('time_zone').notNull().default('UTC'),
    streakDays: integer('streak_days').notNull().default(0),
    /** Local date (YYYY-MM-DD) of the last counted visit. */
    lastVisit: text('last_visit'),
    /** The zone whose calendar lastVisit is a date of; null: timeZone. */
    lastVisitZone: text('last_visit_zone'),
    freezes: integer('freezes').notNull().default(0),
    streakReminders: boolean('streak_reminders').notNull().default(true),
    quietFrom: integer('quiet_from').notNull().default(22),
    quietTo: integer('quiet_to').notNull().default(8),
    lastReminder: text('last_reminder'),
  },
  (t) => [check('wallets_gold_not_negative', sql`${t.gold} >= 0`), check('wallets_xp_not_negative', sql`${t.xp} >= 0`)],
);

/**
 * Every reward once: one row per user and event key (a room, a local day, a claimed quest). A
 * repeated or concurrent delivery finds the key taken and changes nothing; the rows are also the
 * "recent rewards" list.
 */
export const missionEvents = pgTable(
  'mission_events',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    kind: text('kind').notNull(),
    label: text('label').notNull(),
    xp: integer('xp').notNull(),
    gold: integer('gold').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('mission_events_user_created_idx').on(t.userId, t.createdAt)],
);

/** The streak calendar: local dates visited, or covered by a freeze. */
export const visitDays = pgTable(
  'visit_days',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    frozen: boolean('frozen').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/** Quests that can be drawn, seeded by a migration; `kind` is the progress event that moves one. */
export const questCatalogue = pgTable('quest_catalogue', {
  id: text('id').primaryKey(),
  cadence: text('cadence', { enum: ['daily', 'weekly'] }).notNull(),
  kind: text('kind').notNull(),
  title: text('title').notNull(),
  target: integer('target').notNull(),
  xp: integer('xp').notNull(),
  gold: integer('gold').notNull(),
  /** How often it is drawn relative to the others; 0 retires it. */
  weight: integer('weight').notNull().default(1),
});

/** The quests a user drew for a local day (`day:2026-11-26`) or week (`week:2026-W48`), and how far they got. */
export const userQuests = pgTable(
  'user_quests',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    questId: text('quest_id')
      .notNull()
      .references(() => questCatalogue.id),
    kind: text('kind').notNull(),
    target: integer('target').notNull(),
    progress: integer('progress').notNull().default(0),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.period, t.questId] })],
);

/** What the store sells, seeded by a migration. */
export const storeItems = pgTable(
  'store_items',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['emojiPack', 'stickerPack', 'flair', 'frame', 'chatBackground', 'nameColour'] }).notNull(),
    price: integer('price').notNull(),
    description: text('description').notNull(),
    imageUrl: text('image_url').notNull(),
    /** Emoji packs: the names of their emoji, unique across the store. */
    emoji: text('emoji')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [check('store_items_price_positive', sql`${t.price} > 0`)],
);

/** Items a user owns: one row each, so an item is never bought twice. */
export const ownedItems = pgTable(
  'owned_items',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    itemId: text('item_id')
      .notNull()
      .references(() => storeItems.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Each process reads the items sold since its last look (shop/emojiOwners.ts).
  (t) => [primaryKey({ columns: [t.userId, t.itemId] }), index('owned_items_created_at_idx').on(t.createdAt)],
);

/**
 * Custom emoji a premium member uploaded: a name unique across Parley, its 64 px WebP. A deleted
 * one keeps its row without the picture: the name stays its owner's, so old messages never show
 * someone else's picture under it.
 */
export const customEmoji = pgTable(
  'custom_emoji',
  {
    name: text('name').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bytes: bytea('bytes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('custom_emoji_owner_idx').on(t.ownerId), index('custom_emoji_created_at_idx').on(t.createdAt)],
);

/** Each purchase attempt by its idempotency key, with its outcome: a retry is answered the same. */
export const purchases = pgTable(
  'purchases',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idempotencyKey: uuid('idempotency_key').notNull(),
    itemId: text('item_id').notNull(),
    outcome: text('outcome', { enum: ['bought', 'not_enough_gold', 'already_owned'] }).notNull(),
    goldAfter: integer('gold_after').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.idempotencyKey] })],
);

/** Gold one user gave another (a gift in a live stream), by the giver's idempotency key. */
export const goldGifts = pgTable(
  'gold_gifts',
  {
    fromUserId: uuid('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idempotencyKey: uuid('idempotency_key').notNull(),
    toUserId: uuid('to_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    outcome: text('outcome', { enum: ['sent', 'not_enough_gold'] }).notNull(),
    goldAfter: integer('gold_after').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.fromUserId, t.idempotencyKey] }), index('gold_gifts_to_idx').on(t.toUserId)],
);

/** Who follows which broadcaster: a follower hears when they go live. */
export const liveFollows = pgTable(
  'live_follows',
  {
    followerId: uuid('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    broadcasterId: uuid('broadcaster_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.broadcasterId] }),
    index('live_follows_broadcaster_idx').on(t.broadcasterId),
    check('live_follows_not_self', sql`${t.followerId} <> ${t.broadcasterId}`),
  ],
);

/** A stream once it ended: what the server counted while it ran, for its broadcaster's summary and record. */
export const liveStreamSummaries = pgTable(
  'live_stream_summaries',
  {
    roomId: uuid('room_id').primaryKey(),
    broadcasterId: uuid('broadcaster_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    category: text('category').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
    peakViewers: integer('peak_viewers').notNull(),
    totalViewers: integer('total_viewers').notNull(),
    messages: integer('messages').notNull(),
    gifts: integer('gifts').notNull(),
    gold: integer('gold').notNull(),
  },
  (t) => [index('live_stream_summaries_broadcaster_idx').on(t.broadcasterId, t.endedAt)],
);

/**
 * Single-use links sent by email (verify an address, reset a password): only the token's sha256
 * is kept, bound to one account and one purpose (and, to verify, the address it was sent to).
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('account_tokens_hash_idx').on(t.tokenHash), index('account_tokens_user_idx').on(t.userId, t.purpose)],
);

/** What the account's devices list shows of a sign-in (a refresh token family, `familyId`); last seen is its current token's issue. */
export const signIns = pgTable(
  'sign_ins',
  {
    familyId: uuid('family_id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id'),
    userAgent: text('user_agent').notNull().default(''),
    /** The country of the address it signed in from (the devices list's approximate place); never a city. */
    country: text('country'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sign_ins_user_idx').on(t.userId)],
);

/** A username given up by a rename, kept for its old owner until `until`: nobody else takes it meanwhile. */
export const usernameReservations = pgTable('username_reservations', {
  nameLower: text('name_lower').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  until: timestamp('until', { withTimezone: true }).notNull(),
});
