import { and, desc, eq, isNull, or } from 'drizzle-orm';
import { nameStyleOf } from '@parley/contract/billing';
import type { OwnProfile, PersonSummary, PrivateField, ProfileUpdate, UserProfile } from '@parley/contract/people';
import type { Db } from '../db/client.ts';
import { friendships, userBlocks, users } from '../db/schema.ts';
import { findAccountById, findAccountByUsername, type Account } from '../db/accounts.ts';
import { settingsFrom } from '../db/settings.ts';
import { DomainError } from '../platform/errors.ts';
import { relationOf } from './relations.ts';

export const USER_NOT_FOUND = 'No one goes by that name on Parley.';
export const WRONG_PASSWORD = 'Your current password is not right.';

export type Passwords = {
  hash(password: string): Promise<string>;
  check(hash: string | null | undefined, password: string): Promise<boolean>;
};

const notFound = () => new DomainError('not_found', USER_NOT_FOUND, 'user_not_found');
const summary = (a: Pick<Account, 'id' | 'username' | 'avatar'>): PersonSummary => ({
  userId: a.id,
  username: a.username,
  avatar: a.avatar,
});

/** A live (not deleted) account by id, or a 401-like refusal: the caller's own account must exist. */
export async function liveAccount(db: Db, userId: string): Promise<Account> {
  const a = await findAccountById(db, userId);
  if (!a || a.deletedAt) throw new DomainError('unauthenticated', 'Your account no longer exists.', 'unauthorized');
  return a;
}

/** A live account by username, or not found. */
export async function accountNamed(db: Db, username: string): Promise<Account> {
  const a = await findAccountByUsername(db, username);
  if (!a || a.deletedAt) throw notFound();
  return a;
}

export async function friendsOf(db: Db, userId: string): Promise<Array<PersonSummary & { since: Date }>> {
  const rows = await db
    .select({ id: users.id, username: users.username, avatar: users.avatar, since: friendships.createdAt })
    .from(friendships)
    .innerJoin(
      users,
      or(
        and(eq(friendships.userLow, userId), eq(users.id, friendships.userHigh)),
        and(eq(friendships.userHigh, userId), eq(users.id, friendships.userLow)),
      ),
    )
    .where(and(or(eq(friendships.userLow, userId), eq(friendships.userHigh, userId)), isNull(users.deletedAt)))
    .orderBy(desc(friendships.createdAt));
  return rows.map((r) => ({ ...summary(r), since: r.since }));
}

export function ownProfileOf(a: Account): OwnProfile {
  return {
    ...summary(a),
    gender: a.gender ?? null,
    age: a.age ?? null,
    description: a.description,
    hobbies: a.hobbies,
    country: a.country,
    languages: a.languages,
    learning: a.learning,
    premiumUser: a.premiumUser,
    rating: { up: a.ratingUp, down: a.ratingDown },
    createdAt: a.createdAt.toISOString(),
    privateFields: a.privateFields as PrivateField[],
    background: a.background,
    hasPassword: a.passwordHash !== null,
  };
}

/** Donors who asked to be thanked in public (billing keeps donations). */
export type PublicThanks = (userIds: string[]) => Promise<Set<string>>;

/** Profiles: one's own, and others' cards with what their owners keep private left out. */
export function profiles(
  db: Db,
  passwords: Passwords,
  thankedInPublic: PublicThanks = async () => new Set(),
  /** A profile changed (whoever caches parts of it forgets them). */
  changed: (userId: string) => void = () => undefined,
) {
  return {
    async own(userId: string): Promise<OwnProfile> {
      return ownProfileOf(await liveAccount(db, userId));
    },

    async update(userId: string, change: ProfileUpdate): Promise<OwnProfile> {
      await liveAccount(db, userId);
      const set: Partial<typeof users.$inferInsert> = {};
      if (change.description !== undefined) set.description = change.description;
      if (change.hobbies !== undefined) set.hobbies = change.hobbies;
      if (change.gender !== undefined) set.gender = change.gender;
      if (change.country !== undefined) set.country = change.country;
      if (change.languages !== undefined) set.languages = change.languages;
      if (change.learning !== undefined) set.learning = change.learning;
      if (change.privateFields !== undefined) set.privateFields = [...new Set(change.privateFields)];
      if (Object.keys(set).length === 0) return this.own(userId);
      const [row] = await db.update(users).set(set).where(eq(users.id, userId)).returning();
      changed(userId);
      return ownProfileOf(row!);
    },

    /**
     * Another user's card for `viewerId`. Someone who blocked the viewer is not found; a profile
     * shown to friends only is a limited card for others; private fields go to friends only.
     */
    async card(viewerId: string, username: string): Promise<UserProfile> {
      const a = await accountNamed(db, username);
      const [blockedViewer] = await db
        .select({ at: userBlocks.createdAt })
        .from(userBlocks)
        .where(and(eq(userBlocks.blockerId, a.id), eq(userBlocks.blockedId, viewerId)))
        .limit(1);
      if (blockedViewer) throw notFound();
      const relation = await relationOf(db, viewerId, a.id);
      const close = relation === 'self' || relation === 'friend';
      const base = {
        ...summary(a),
        premiumUser: a.premiumUser,
        nameStyle: nameStyleOf(a.premiumUser, a.nameColour),
        thankedDonor: (await thankedInPublic([a.id])).has(a.id),
        rating: { up: a.ratingUp, down: a.ratingDown },
        createdAt: a.createdAt.toISOString(),
        relation,
      };
      if (!close && settingsFrom(a.settings).privacy.profileVisibleTo === 'friends') return { ...base, limited: true };
      const hidden = new Set(close ? [] : (a.privateFields as PrivateField[]));
      const card: UserProfile = { ...base, limited: false };
      if (!hidden.has('gender')) card.gender = a.gender ?? null;
      if (!hidden.has('age')) card.age = a.age ?? null;
      if (!hidden.has('description')) card.description = a.description;
      if (!hidden.has('hobbies')) card.hobbies = a.hobbies;
      if (!hidden.has('country')) card.country = a.country;
      card.languages = a.languages;
      card.learning = a.learning;
      if (close) card.friendsList = (await friendsOf(db, a.id)).map(({ since: _since, ...p }) => p);
      return card;
    },

    async checkPassword(userId: string, password: string): Promise<Account> {
      const a = await liveAccount(db, userId);
      if (!(await passwords.check(a.passwordHash, password))) throw new DomainError('forbidden', WRONG_PASSWORD, 'wrong_password');
      return a;
    },
  };
}
export type Profiles = ReturnType<typeof profiles>;
