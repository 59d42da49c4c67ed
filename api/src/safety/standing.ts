import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Lane } from '../platform/lane.ts';
import { users } from '../db/schema.ts';

/** The room events standing follows: a 1:1 chat that ended, with who spoke in it. */
export type EndedConversation = { kind: string; userIds: string[]; spoke: string[] };

const ONE_TO_ONE = new Set(['textChat', 'videoChat']);

/**
 * Counts real chats: 1:1 chats in which both people said something. A handful of accounts made
 * for a purpose has none, so what needs some standing (counting towards popular topics) can ask
 * for a few. Counted in the database, so every process adds to the same number.
 */
export function conversationCounter(db: Db, background: Lane, onError: (err: unknown) => void) {
  return {
    ended(e: EndedConversation) {
      if (!ONE_TO_ONE.has(e.kind) || e.userIds.length < 2) return;
      if (!e.userIds.every((id) => e.spoke.includes(id))) return;
      background
        .run(() =>
          db
            .update(users)
            .set({ realChats: sql`${users.realChats} + 1` })
            .where(inArray(users.id, e.userIds))
            .then(() => undefined),
        )
        .catch(onError);
    },
  };
}
