import { and, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { AppNotification, NotificationKind, NotificationPage } from '@parley/contract/notifications';
import type { Db } from '../db/client.ts';
import { notifications } from '../db/schema.ts';
import { uniqueViolation } from '../db/accounts.ts';

type Row = typeof notifications.$inferSelect;

export const toNotification = (r: Row): AppNotification => ({
  notificationId: String(r.id),
  kind: r.kind as NotificationKind,
  text: r.text,
  link: r.link,
  read: r.readAt !== null,
  count: r.count,
  createdAt: r.createdAt.toISOString(),
});

export type NewNotification = { kind: NotificationKind; text: string; link: string; coalesceKey?: string | undefined; read?: boolean };

/** The in-app notifications of users, in PostgreSQL. */
export function notificationStore(db: Db) {
  return {
    /**
     * Stores a notification. One with a coalesce key replaces the user's unread one of the same key
     * (its count carried over) under a new id, so it moves to the top of the list.
     */
    async add(userId: string, n: NewNotification): Promise<AppNotification> {
      const readAt = n.read ? sql`now()` : null;
      if (!n.coalesceKey) {
        const [row] = await db.insert(notifications).values({ userId, kind: n.kind, text: n.text, link: n.link, readAt }).returning();
        return toNotification(row!);
      }
      for (let attempt = 0; ; attempt++) {
        try {
          const { rows } = await db.execute<Record<string, unknown>>(sql`
            with old as (
              delete from ${notifications}
              where user_id = ${userId} and coalesce_key = ${n.coalesceKey} and read_at is null
              returning count
            )
            insert into ${notifications} (user_id, kind, text, link, coalesce_key, count, read_at)
            values (${userId}, ${n.kind}, ${n.text}, ${n.link}, ${n.coalesceKey}, coalesce((select sum(count) from old), 0) + 1, ${readAt})
            returning id, kind, text, link, count, read_at, created_at`);
          const r = rows[0]!;
          return toNotification({
            id: Number(r.id),
            kind: r.kind as string,
            text: r.text as string,
            link: r.link as string,
            count: Number(r.count),
            readAt: r.read_at ? new Date(r.read_at as string) : null,
            createdAt: new Date(r.created_at as string),
          } as Row);
        } catch (e) {
          // Two at once for the same conversation: the second sees the first's row on a retry.
          if (attempt < 2 && uniqueViolation(e) === 'notifications_unread_key_idx') continue;
          throw e;
        }
      }
    },

    async page(userId: string, before: number | undefined, limit: number): Promise<NotificationPage> {
      const rows = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), before !== undefined ? lt(notifications.id, before) : undefined))
        .orderBy(desc(notifications.id))
        .limit(limit + 1);
      const [{ unread } = { unread: 0 }] = await db
        .select({ unread: sql<number>`count(*)::int` })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
      const more = rows.length > limit;
      const list = rows.slice(0, limit).map(toNotification);
      return { notificationList: list, unread, nextBefore: more ? list[list.length - 1]!.notificationId : null };
    },

    /**
     * Marks read the user's unread conversation notices (direct messages, mentions) whose link is
     * `link`: the page showing that conversation was opened. Answers the ids that changed.
     */
    async markReadAt(userId: string, link: string): Promise<string[]> {
      const rows = await db
        .update(notifications)
        .set({ readAt: sql`now()` })
        .where(
          and(
            eq(notifications.userId, userId),
            isNull(notifications.readAt),
            isNotNull(notifications.coalesceKey),
            eq(notifications.link, link),
          ),
        )
        .returning({ id: notifications.id });
      return rows.map((r) => String(r.id));
    },

    /** Marks the user's own notifications read (ids of others' are ignored); answers those that changed. */
    async markRead(userId: string, ids: number[] | 'all'): Promise<string[]> {
      const rows = await db
        .update(notifications)
        .set({ readAt: sql`now()` })
        .where(
          and(eq(notifications.userId, userId), isNull(notifications.readAt), ids === 'all' ? undefined : inArray(notifications.id, ids)),
        )
        .returning({ id: notifications.id });
      return rows.map((r) => String(r.id));
    },
  };
}
export type NotificationStore = ReturnType<typeof notificationStore>;
