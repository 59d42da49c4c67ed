import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { nameStyleOf, perksOf } from '@parley/contract/billing';
import type { RateBody, RecentPartner } from '@parley/contract/people';
import type { Db } from '../db/client.ts';
import { encounters, ratings, users } from '../db/schema.ts';
import type { RoomEvents } from '../deps.ts';
import { DomainError } from '../platform/errors.ts';
import { accountNamed, liveAccount } from './profiles.ts';
import { relationOf } from './relations.ts';

/** Encounters are kept this long: long enough to rate a chat and to ask "have we met" for friend requests. */
export const ENCOUNTER_KEEP_DAYS = 30;
export const NOT_YOUR_PARTNER = 'You can rate only someone you chatted with in that room.';
export const ALREADY_RATED = 'You already rated this chat.';

/** Encounters wait this long to be written together: one statement for every match in the window. */
const WRITE_BATCH_MS = 20;
/** Partners of 1:1 chats; a stream watched is no partnership (no rating, not a recent partner). */
export const oneToOne = inArray(encounters.kind, ['textChat', 'videoChat']);

type NewEncounter = { roomId: string; userId: string; partnerId: string; kind: 'textChat' | 'videoChat' | 'live' };

/**
 * The rows as one JSON parameter: the query builder spent more time building a statement of a few
 * hundred parameters (2,000 rows a second at 1,000 matches a second) than the database took to run it.
 */
const insertEncounters = (rows: NewEncounter[]) => sql`
  insert into encounters (room_id, user_id, partner_id, kind)
  select room_id, user_id, partner_id, kind
  from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ room_id: r.roomId, user_id: r.userId, partner_id: r.partnerId, kind: r.kind })))}::jsonb)
    as e(room_id text, user_id uuid, partner_id uuid, kind text)
  on conflict do nothing`;

/** Who met whom in 1:1 chats: recorded from the rooms' `matched` events, read as recent partners and as the right to rate. */
export function encounterBook(db: Db, onError: (err: unknown) => void) {
  // The embedded database spends most of a small insert on the statement itself: under a stream
  // of matches, rows from the same few milliseconds share one.
  let pending: NewEncounter[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    const rows = pending;
    pending = [];
    if (rows.length) writing = writing.then(() => db.execute(insertEncounters(rows)).then(() => undefined, onError));
    return writing;
  };
  /** Readers in this process first see every encounter it has been told of. */
  const written = () => (pending.length ? write() : writing);

  return {
    /** A 1:1 room opened: both members are each other's partner. */
    matched(e: RoomEvents['matched']) {
      if (e.kind !== 'textChat' && e.kind !== 'videoChat') return;
      const ids = [...new Set(e.members.map((m) => m.userId))];
      if (ids.length !== 2) return;
      const [a, b] = ids as [string, string];
      const kind = e.kind;
      pending.push({ roomId: e.roomId, userId: a, partnerId: b, kind }, { roomId: e.roomId, userId: b, partnerId: a, kind });
      timer ??= setTimeout(write, WRITE_BATCH_MS);
    },

    /** Someone watched another's live stream: recorded so a later report of the broadcaster knows they met. */
    watched(e: { streamId: string; viewerId: string; broadcasterId: string }) {
      if (e.viewerId === e.broadcasterId) return;
      pending.push({ roomId: e.streamId, userId: e.viewerId, partnerId: e.broadcasterId, kind: 'live' });
      timer ??= setTimeout(write, WRITE_BATCH_MS);
    },

    written,

    /** Whether these two were the members of this 1:1 room of this kind: what a report about a chat must name. */
    async metIn(room: { roomId: string; kind: 'textChat' | 'videoChat' }, userId: string, partnerId: string): Promise<boolean> {
      await written();
      const [row] = await db
        .select({ roomId: encounters.roomId })
        .from(encounters)
        .where(
          and(
            eq(encounters.roomId, room.roomId),
            eq(encounters.userId, userId),
            eq(encounters.partnerId, partnerId),
            eq(encounters.kind, room.kind),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Whether `userId` met `partnerId` within ENCOUNTER_KEEP_DAYS in a 1:1 chat, or watched their stream. */
    async met(userId: string, partnerId: string, place: 'chat' | 'live'): Promise<boolean> {
      await written();
      const [row] = await db
        .select({ roomId: encounters.roomId })
        .from(encounters)
        .where(
          and(
            eq(encounters.userId, userId),
            eq(encounters.partnerId, partnerId),
            place === 'live' ? eq(encounters.kind, 'live') : oneToOne,
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /**
     * The people met recently, newest first, each once: how many and how far back are perks of the
     * tier stored now (not the token's, which may be older than a webhook's change).
     */
    async recent(userId: string): Promise<RecentPartner[]> {
      await written();
      const perks = perksOf((await liveAccount(db, userId)).premiumUser);
      const since = sql`now() - make_interval(hours => ${perks.recentPartnerHours})`;
      const latest = db
        .selectDistinctOn([encounters.partnerId], {
          roomId: encounters.roomId,
          partnerId: encounters.partnerId,
          kind: encounters.kind,
          metAt: encounters.metAt,
        })
        .from(encounters)
        .where(and(eq(encounters.userId, userId), gt(encounters.metAt, since), oneToOne))
        .orderBy(encounters.partnerId, desc(encounters.metAt))
        .as('latest');
      const rows = await db
        .select({
          roomId: latest.roomId,
          kind: latest.kind,
          metAt: latest.metAt,
          id: users.id,
          username: users.username,
          avatar: users.avatar,
          premiumUser: users.premiumUser,
          nameColour: users.nameColour,
        })
        .from(latest)
        .innerJoin(users, eq(users.id, latest.partnerId))
        .where(isNull(users.deletedAt))
        .orderBy(desc(latest.metAt))
        .limit(perks.recentPartners);
      const rated = rows.length
        ? new Set(
            (
              await db
                .select({ roomId: ratings.roomId })
                .from(ratings)
                .where(
                  and(
                    eq(ratings.raterId, userId),
                    inArray(
                      ratings.roomId,
                      rows.map((r) => r.roomId),
                    ),
                  ),
                )
            ).map((r) => r.roomId),
          )
        : new Set<string>();
      return Promise.all(
        rows.map(async (r) => ({
          userId: r.id,
          username: r.username,
          avatar: r.avatar,
          roomId: r.roomId,
          // The query reads 1:1 partners only (oneToOne).
          kind: r.kind as RecentPartner['kind'],
          metAt: r.metAt.toISOString(),
          relation: await relationOf(db, userId, r.id),
          rated: rated.has(r.roomId),
          nameStyle: nameStyleOf(r.premiumUser, r.nameColour),
        })),
      );
    },

    /** One thumbs up or down per rater and room, for the partner met in it; the profile shows only the sums. */
    async rate(raterId: string, body: RateBody): Promise<void> {
      const them = await accountNamed(db, body.username);
      await written();
      const [met] = await db
        .select({ roomId: encounters.roomId })
        .from(encounters)
        .where(and(eq(encounters.roomId, body.roomId), eq(encounters.userId, raterId), eq(encounters.partnerId, them.id), oneToOne))
        .limit(1);
      if (!met) throw new DomainError('not_found', NOT_YOUR_PARTNER, 'not_your_partner');
      const up = body.value === 'up';
      const done = await db.transaction(async (tx) => {
        const inserted = await tx
          .insert(ratings)
          .values({ roomId: body.roomId, raterId, ratedId: them.id, up })
          .onConflictDoNothing()
          .returning();
        if (inserted.length === 0) return false;
        await tx
          .update(users)
          .set(up ? { ratingUp: sql`${users.ratingUp} + 1` } : { ratingDown: sql`${users.ratingDown} + 1` })
          .where(eq(users.id, them.id));
        return true;
      });
      if (!done) throw new DomainError('conflict', ALREADY_RATED, 'already_rated');
    },

    async sweep(): Promise<number> {
      const gone = await db
        .delete(encounters)
        .where(lt(encounters.metAt, sql`now() - make_interval(days => ${ENCOUNTER_KEEP_DAYS})`))
        .returning({ at: encounters.metAt });
      return gone.length;
    },
  };
}
export type EncounterBook = ReturnType<typeof encounterBook>;
