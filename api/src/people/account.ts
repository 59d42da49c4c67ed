import { and, desc, eq, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { USERNAME_RESERVED_DAYS, type PersonSummary, type Settings } from '@parley/contract/people';
import type { Db } from '../db/client.ts';
import {
  accountDevices,
  accountTokens,
  customEmoji,
  encounters,
  friendRequests,
  friendships,
  images,
  liveFollows,
  missionEvents,
  notifications,
  pushSubscriptions,
  ratings,
  roomMembers,
  roomMessages,
  roomReactions,
  signIns,
  subscriptions,
  supportRequests,
  userBlocks,
  userQuests,
  users,
  visitDays,
} from '../db/schema.ts';
import { settingsFrom } from '../db/settings.ts';
import { DomainError } from '../platform/errors.ts';
import { friendPair } from './friendships.ts';
import { exportAccountData } from './dataExport.ts';
import { accountNamed, liveAccount } from './profiles.ts';
import { eitherWay } from './relations.ts';

export const SUBSCRIPTION_RENEWS =
  'Your premium subscription still renews. Cancel it on the Premium page (Manage subscription) first, then delete your account.';

/** Settings, blocks, the data export and account deletion: what /settingboard manages. */
export function accounts(db: Db, hooks: { blocksChanged(a: string, b: string): void; blocked?(blocker: string, blocked: string): void }) {
  return {
    async settings(userId: string): Promise<Settings> {
      return settingsFrom((await liveAccount(db, userId)).settings);
    },

    /**
     * Replaces the groups of settings given (each whole), keeping the others; merged in the
     * database, so two pages saving different groups at once both keep theirs.
     */
    async updateSettings(userId: string, change: Partial<Settings>): Promise<Settings> {
      await liveAccount(db, userId);
      const [row] = await db
        .update(users)
        .set({ settings: sql`${users.settings} || ${JSON.stringify(change)}::jsonb` })
        .where(eq(users.id, userId))
        .returning({ settings: users.settings });
      return settingsFrom(row!.settings);
    },

    async blocked(userId: string): Promise<PersonSummary[]> {
      const rows = await db
        .select({ userId: users.id, username: users.username, avatar: users.avatar })
        .from(userBlocks)
        .innerJoin(users, eq(users.id, userBlocks.blockedId))
        .where(eq(userBlocks.blockerId, userId))
        .orderBy(desc(userBlocks.createdAt));
      return rows;
    },

    /** Blocks someone: never matched again, no requests either way, and a friendship ends. */
    async block(userId: string, username: string): Promise<void> {
      const them = await accountNamed(db, username);
      if (them.id === userId) throw new DomainError('invalid', 'You cannot block yourself.', 'self_block');
      const pair = friendPair(userId, them.id);
      await db.transaction(async (tx) => {
        await tx.insert(userBlocks).values({ blockerId: userId, blockedId: them.id }).onConflictDoNothing();
        await tx.delete(friendships).where(and(eq(friendships.userLow, pair.userLow), eq(friendships.userHigh, pair.userHigh)));
        await tx.delete(friendRequests).where(eitherWay(friendRequests.fromId, friendRequests.toId, userId, them.id));
      });
      hooks.blocksChanged(userId, them.id);
      hooks.blocked?.(userId, them.id);
    },

    async unblock(userId: string, username: string): Promise<void> {
      const them = await accountNamed(db, username);
      const rows = await db
        .delete(userBlocks)
        .where(and(eq(userBlocks.blockerId, userId), eq(userBlocks.blockedId, them.id)))
        .returning();
      if (rows.length === 0) throw new DomainError('not_found', `You have not blocked ${them.username}.`, 'not_blocked');
      hooks.blocksChanged(userId, them.id);
    },

    /** Everything stored about the user, as JSON (dataExport.ts); never the password hash. */
    export: (userId: string) => exportAccountData(db, userId),

    /**
     * Refuses to delete an account whose paid subscription still renews: Stripe would go on
     * charging someone who can no longer sign in to cancel.
     */
    async refuseIfRenewing(userId: string): Promise<void> {
      const [renewing] = await db
        .select({ id: subscriptions.stripeSubscriptionId })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, userId),
            inArray(subscriptions.status, ['active', 'trialing', 'past_due']),
            isNull(subscriptions.cancelledAt),
          ),
        )
        .limit(1);
      if (renewing) throw new DomainError('conflict', SUBSCRIPTION_RENEWS, 'subscription_renews');
    },

    /**
     * Deletes an account: everything about the user goes, and the row keeps only its id and
     * username, which the sweep frees USERNAME_RESERVED_DAYS later (nobody can pose as them meanwhile).
     */
    async delete(userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(friendships).where(or(eq(friendships.userLow, userId), eq(friendships.userHigh, userId)));
        await tx.delete(friendRequests).where(or(eq(friendRequests.fromId, userId), eq(friendRequests.toId, userId)));
        await tx.delete(userBlocks).where(eq(userBlocks.blockerId, userId));
        await tx.delete(encounters).where(or(eq(encounters.userId, userId), eq(encounters.partnerId, userId)));
        await tx.delete(ratings).where(eq(ratings.raterId, userId));
        await tx.delete(images).where(eq(images.ownerId, userId));
        await tx.delete(notifications).where(eq(notifications.userId, userId));
        await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
        await tx.update(supportRequests).set({ userId: null }).where(eq(supportRequests.userId, userId));
        // What they wrote stays in others' histories only as "message deleted", its text gone.
        await tx
          .update(roomMessages)
          .set({ text: '', emoji: null, deletedAt: sql`coalesce(${roomMessages.deletedAt}, now())`, deletedBy: userId })
          .where(eq(roomMessages.senderId, userId));
        await tx.delete(roomReactions).where(eq(roomReactions.userId, userId));
        // A group they own keeps its owner row (the room lives on for its members); other memberships go.
        await tx.delete(roomMembers).where(and(eq(roomMembers.userId, userId), ne(roomMembers.role, 'owner')));
        await tx.delete(liveFollows).where(or(eq(liveFollows.followerId, userId), eq(liveFollows.broadcasterId, userId)));
        // Their emoji's pictures go; the names stay reserved, so no one else's picture appears under them.
        await tx
          .update(customEmoji)
          .set({ bytes: null, deletedAt: sql`coalesce(${customEmoji.deletedAt}, now())` })
          .where(eq(customEmoji.ownerId, userId));
        await tx.delete(accountDevices).where(eq(accountDevices.userId, userId));
        await tx.delete(signIns).where(eq(signIns.userId, userId));
        await tx.delete(accountTokens).where(eq(accountTokens.userId, userId));
        await tx.delete(missionEvents).where(eq(missionEvents.userId, userId));
        await tx.delete(visitDays).where(eq(visitDays.userId, userId));
        await tx.delete(userQuests).where(eq(userQuests.userId, userId));
        await tx
          .update(users)
          .set({
            passwordHash: null,
            googleId: null,
            googleEmail: null,
            avatar: '',
            age: null,
            gender: null,
            description: '',
            hobbies: [],
            country: null,
            languages: [],
            learning: [],
            privateFields: [],
            background: null,
            settings: {},
            ratingUp: 0,
            ratingDown: 0,
            email: null,
            emailVerifiedAt: null,
            pendingEmail: null,
            deletedAt: sql`now()`,
          })
          .where(eq(users.id, userId));
      });
    },

    /** Frees the usernames of accounts deleted more than USERNAME_RESERVED_DAYS ago. */
    async sweep(): Promise<number> {
      const freed = await db
        .update(users)
        .set({ username: sql`'deleted:' || ${users.id}::text` })
        .where(
          and(
            isNotNull(users.deletedAt),
            lt(users.deletedAt, sql`now() - make_interval(days => ${USERNAME_RESERVED_DAYS})`),
            sql`${users.username} not like 'deleted:%'`,
          ),
        )
        .returning({ id: users.id });
      return freed.length;
    },
  };
}
export type Accounts = ReturnType<typeof accounts>;
