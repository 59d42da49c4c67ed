import { sql } from 'drizzle-orm';
import { bigserial, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
    hobbies: jsonb('hobbies').$type<string[]>().notNull().default([]),
    country: text('country'),
    /** Profile fields shown to friends only (contract PRIVATE_FIELDS). */
    privateFields: jsonb('private_fields').$type<string[]>().notNull().default([]),
    /** The chosen chat background: a shipped id or `upload:<imageId>`. */
    background: text('background'),
    /** Settings as the contract's settingsSchema reads them (defaults fill what is missing). */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    ratingUp: integer('rating_up').notNull().default(0),
    ratingDown: integer('rating_down').notNull().default(0),
    /** A deleted account keeps only its id and username, which is freed USERNAME_RESERVED_DAYS later. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    // Usernames are unique regardless of case.
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_google_id_idx').on(t.googleId),
    // Each API process reads the bans made since its last look (auth/revocations.ts).
    index('users_banned_at_idx')
      .on(t.bannedAt)
      .where(sql`${t.bannedAt} is not null`),
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
    // Each API process reads the sign-ins ended since its last look (auth/revocations.ts).
    index('refresh_tokens_revoked_at_idx')
      .on(t.revokedAt)
      .where(sql`${t.revokedAt} is not null`),
  ],
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

/** Who met whom in a 1:1 chat room: recent partners, and the proof a rating needs. */
export const encounters = pgTable(
  'encounters',
  {
    roomId: text('room_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    partnerId: uuid('partner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['textChat', 'videoChat'] }).notNull(),
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
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
);
