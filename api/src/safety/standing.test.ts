import { describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { chatEvents } from '@parley/contract/matchmaking';
import { users } from '../db/schema.ts';
import { next, person, said, socketTestServer } from '../testing/socketClients.ts';

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
});
