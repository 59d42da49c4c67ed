import { desc, eq, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  accountDevices,
  appeals,
  billingCustomers,
  checkoutSessions,
  customEmoji,
  encounters,
  friendRequests,
  goldGifts,
  images,
  liveFollows,
  missionEvents,
  moderationActions,
  notifications,
  ownedItems,
  purchases,
  pushSubscriptions,
  ratings,
  refreshTokens,
  reports,
  roomMembers,
  roomMessages,
  roomReactions,
  storedRooms,
  subscriptions,
  supportRequests,
  userBlocks,
  userQuests,
  users,
  visitDays,
  wallets,
} from '../db/schema.ts';
import { settingsFrom } from '../db/settings.ts';
import { friendsOf, liveAccount } from './profiles.ts';

const dataUrl = (bytes: Buffer) => `data:image/webp;base64,${bytes.toString('base64')}`;

/**
 * Everything stored about a user, as JSON (images as data URLs): the account, the people side, what
 * they wrote in rooms, missions and gold, payments and safety records about them. Never the
 * password hash, token hashes or other people's private data (a report's evidence, who rated them).
 */
export async function exportAccountData(db: Db, userId: string): Promise<Record<string, unknown>> {
  const a = await liveAccount(db, userId);
  const { passwordHash: _hash, settings, ...account } = a;
  const [
    friendList,
    requests,
    blocks,
    met,
    given,
    notes,
    devices,
    pictures,
    support,
    signIns,
    memberships,
    messages,
    reactions,
    wallet,
    missions,
    visits,
    quests,
    owned,
    bought,
    gifts,
    emoji,
    follows,
    billing,
    subs,
    checkouts,
    reportsFiled,
    moderation,
    appealsMade,
    knownDevices,
  ] = await Promise.all([
    friendsOf(db, userId),
    db
      .select()
      .from(friendRequests)
      .where(or(eq(friendRequests.fromId, userId), eq(friendRequests.toId, userId))),
    db.select().from(userBlocks).where(eq(userBlocks.blockerId, userId)),
    db.select().from(encounters).where(eq(encounters.userId, userId)),
    db.select().from(ratings).where(eq(ratings.raterId, userId)),
    db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.id)),
    db
      .select({ endpoint: pushSubscriptions.endpoint, createdAt: pushSubscriptions.createdAt })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId)),
    db.select().from(images).where(eq(images.ownerId, userId)),
    db.select().from(supportRequests).where(eq(supportRequests.userId, userId)),
    db
      .select({ createdAt: refreshTokens.createdAt, expiresAt: refreshTokens.expiresAt, revokedAt: refreshTokens.revokedAt })
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, userId)),
    db
      .select({
        roomId: roomMembers.roomId,
        kind: storedRooms.kind,
        name: storedRooms.name,
        role: roomMembers.role,
        joinedAt: roomMembers.joinedAt,
        lastReadId: roomMembers.lastReadId,
      })
      .from(roomMembers)
      .innerJoin(storedRooms, eq(storedRooms.id, roomMembers.roomId))
      .where(eq(roomMembers.userId, userId)),
    db
      .select({
        roomId: roomMessages.roomId,
        id: roomMessages.id,
        text: roomMessages.text,
        replyTo: roomMessages.replyTo,
        createdAt: roomMessages.createdAt,
        editedAt: roomMessages.editedAt,
        deletedAt: roomMessages.deletedAt,
      })
      .from(roomMessages)
      .where(eq(roomMessages.senderId, userId))
      .orderBy(roomMessages.createdAt),
    db.select().from(roomReactions).where(eq(roomReactions.userId, userId)),
    db.select().from(wallets).where(eq(wallets.userId, userId)),
    db.select().from(missionEvents).where(eq(missionEvents.userId, userId)),
    db.select().from(visitDays).where(eq(visitDays.userId, userId)),
    db.select().from(userQuests).where(eq(userQuests.userId, userId)),
    db.select().from(ownedItems).where(eq(ownedItems.userId, userId)),
    db.select().from(purchases).where(eq(purchases.userId, userId)),
    db
      .select()
      .from(goldGifts)
      .where(or(eq(goldGifts.fromUserId, userId), eq(goldGifts.toUserId, userId))),
    db.select().from(customEmoji).where(eq(customEmoji.ownerId, userId)),
    db.select().from(liveFollows).where(eq(liveFollows.followerId, userId)),
    db.select().from(billingCustomers).where(eq(billingCustomers.userId, userId)),
    db.select().from(subscriptions).where(eq(subscriptions.userId, userId)),
    db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, userId)),
    // What the user reported and why; the evidence of others' words stays with moderators.
    db
      .select({
        id: reports.id,
        reportedId: reports.reportedId,
        context: reports.context,
        roomId: reports.roomId,
        reason: reports.reason,
        note: reports.note,
      })
      .from(reports)
      .where(eq(reports.reporterId, userId)),
    db
      .select({
        id: moderationActions.id,
        action: moderationActions.action,
        rule: moderationActions.rule,
        note: moderationActions.note,
        until: moderationActions.until,
        createdAt: moderationActions.createdAt,
      })
      .from(moderationActions)
      .where(eq(moderationActions.userId, userId)),
    db.select().from(appeals).where(eq(appeals.userId, userId)),
    db.select().from(accountDevices).where(eq(accountDevices.userId, userId)),
  ]);
  const received = await db.select({ up: users.ratingUp, down: users.ratingDown }).from(users).where(eq(users.id, userId));
  return {
    exportedAt: new Date().toISOString(),
    account: { ...account, hasPassword: a.passwordHash !== null },
    settings: settingsFrom(settings),
    friends: friendList,
    friendRequests: requests,
    blocked: blocks,
    chatPartners: met,
    ratingsGiven: given,
    ratingReceived: received[0],
    notifications: notes,
    pushDevices: devices,
    images: pictures.map(({ bytes, ...p }) => ({ ...p, dataUrl: dataUrl(bytes) })),
    supportRequests: support,
    signIns,
    rooms: memberships,
    messagesSent: messages,
    reactions,
    wallet: wallet[0] ?? null,
    missionEvents: missions,
    visitDays: visits,
    quests,
    ownedItems: owned,
    purchases: bought,
    goldGifts: gifts,
    customEmoji: emoji.map(({ bytes, ...e }) => ({ ...e, dataUrl: bytes ? dataUrl(bytes) : null })),
    liveFollows: follows,
    billing: { customer: billing[0] ?? null, subscriptions: subs, checkouts },
    reportsFiled,
    moderationActions: moderation,
    appeals: appealsMade,
    devices: knownDevices,
  };
}
