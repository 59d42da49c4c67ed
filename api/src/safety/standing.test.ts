import { describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { chatEvents } from '@parley/contract/matchmaking';
import { users } from '../db/schema.ts';
import { lane } from '../platform/lane.ts';
import { next, person, said, socketTestServer } from '../testing/socketClients.ts';
import { conversationCounter } from './standing.ts';

const clients = socketTestServer();
const { chatting } = clients;

const account = async () => {
  const p = person();
  await clients.server().deps.db.insert(users).values({ id: p.userId, username: p.username, isVerified: true });
  return p;
};
const realChats = async (...ids: string[]) => {
  const rows = await clients.server().deps.db.select({ id: users.id, n: users.realChats }).from(users).where(inArray(users.id, ids));
  return ids.map((id) => rows.find((r) => r.id === id)?.n);
};
const settle = async (ids: string[], want: number[]) => {
  for (let i = 0; i < 20 && JSON.stringify(await realChats(...ids)) !== JSON.stringify(want); i++)
    await new Promise((r) => setTimeout(r, 50));
  return realChats(...ids);
};

describe('standing: real chats', () => {
  it('counts a 1:1 chat in which both spoke, for both, once it ends; not one where only one spoke', async () => {
    const [a, b] = [await account(), await account()];
    const { ka, kb, roomId } = await chatting(a, b);
    await said(ka, roomId, 'hi');
    await said(kb, roomId, 'hello');
    const left = next(kb, chatEvents.partnerLeft);
    ka.emit(chatEvents.stop);
    await left;
    expect(await settle([a.userId, b.userId], [1, 1])).toEqual([1, 1]);

    // Only one of them speaks: a glance, not a conversation.
    const [c, d] = [await account(), await account()];
    const second = await chatting(c, d);
    await said(second.ka, second.roomId, 'anyone?');
    const gone = next(second.kb, chatEvents.partnerLeft);
    second.ka.emit(chatEvents.stop);
    await gone;
    await new Promise((r) => setTimeout(r, 300));
    expect(await realChats(c.userId, d.userId)).toEqual([0, 0]);
    const [row] = await clients.server().deps.db.select().from(users).where(eq(users.id, a.userId));
    expect(row?.realChats).toBe(1);
  });

  it('adds up the chats that end while the write lane is busy, and writes them in one turn', async () => {
    const [a, b, c, d] = [await account(), await account(), await account(), await account()];
    const db = clients.server().deps.db;
    const background = lane(1);
    let release!: () => void;
    void background.run(() => new Promise<void>((r) => (release = r)));
    // The counter's own statements, counted apart from anything else the server writes meanwhile.
    let statements = 0;
    const counted = { update: (...args: Parameters<typeof db.update>) => (statements++, db.update(...args)) } as unknown as typeof db;
    const errors: unknown[] = [];
    const counter = conversationCounter(counted, background, (err) => errors.push(err));
    const spoke = (ids: string[]) => ({ kind: 'textChat', userIds: ids, spoke: ids });
    counter.ended(spoke([a.userId, b.userId]));
    counter.ended(spoke([c.userId, d.userId]));
    counter.ended(spoke([a.userId, c.userId]));
    counter.ended({ kind: 'textChat', userIds: [b.userId, d.userId], spoke: [b.userId] });
    release();
    await background.idle();
    // Three real chats: a and c ended two each, b and d one: a statement for each count, not each chat.
    expect(statements).toBe(2);
    expect(await realChats(a.userId, b.userId, c.userId, d.userId)).toEqual([2, 1, 2, 1]);
    // With the lane free again, the next chat is written on its own.
    counter.ended(spoke([b.userId, d.userId]));
    await background.idle();
    expect(await realChats(a.userId, b.userId, c.userId, d.userId)).toEqual([2, 2, 2, 2]);
    expect(statements).toBe(3);
    expect(errors).toEqual([]);
  });
});
