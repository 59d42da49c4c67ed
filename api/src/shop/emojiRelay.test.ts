import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { roomEvents, type RoomMessage } from '@parley/contract/rooms';
import { ownedItems } from '../db/schema.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { OWNERS_POLL_MS } from './emojiOwners.ts';
import { giveGold, member } from '../testing/members.ts';
import { next, said, socketClients } from '../testing/socketClients.ts';

describe('custom emoji in a 1:1 chat message', () => {
  let server: TestServer;
  const clients = socketClients(() => server);
  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterEach(() => clients.closeAll());
  afterAll(() => server?.close());

  it('marks the shortcodes the sender owns, and only those, for the partner', async () => {
    const [a, b] = [await member(server), await member(server)];
    await giveGold(server, a.userId, 30);
    expect((await a.post('/api/shop/purchases', { itemId: 'pack-critters', idempotencyKey: randomUUID() })).status).toBe(200);
    const { ka, kb, roomId } = await clients.chatting(a.user, b.user);
    // The buyer's emoji loaded as they connected (after the purchase): their first message is marked.
    await expect
      .poll(async () => {
        const got = next<RoomMessage>(kb, roomEvents.message);
        await said(ka, roomId, 'hi :parley_cat: and :parley_sun: :parley_cat:');
        return (await got).emoji;
      })
      .toEqual(['parley_cat']);
    // The partner owns none: their shortcodes stay text.
    const got = next<RoomMessage>(ka, roomEvents.message);
    await said(kb, roomId, ':parley_cat: :parley_fox:');
    expect((await got).emoji).toBeUndefined();
  });

  it('refreshes a connected user’s emoji when they buy a pack', async () => {
    const [a, b] = [await member(server), await member(server)];
    const { ka, kb, roomId } = await clients.chatting(a.user, b.user);
    await giveGold(server, a.userId, 40);
    expect((await a.post('/api/shop/purchases', { itemId: 'pack-weather', idempotencyKey: randomUUID() })).status).toBe(200);
    await expect
      .poll(async () => {
        const got = next<RoomMessage>(kb, roomEvents.message);
        await said(ka, roomId, ':parley_rainbow:');
        return (await got).emoji;
      })
      .toEqual(['parley_rainbow']);
  });

  it('learns of a pack sold by another process within a look, for a user connected here', async () => {
    const [a, b] = [await member(server), await member(server)];
    const { ka, kb, roomId } = await clients.chatting(a.user, b.user);
    // Written straight to the database, as another API process's sale would be.
    await server.deps.db.insert(ownedItems).values({ userId: a.userId, itemId: 'pack-critters' });
    await new Promise((r) => setTimeout(r, OWNERS_POLL_MS + 500));
    const got = next<RoomMessage>(kb, roomEvents.message);
    await said(ka, roomId, ':parley_cat:');
    expect((await got).emoji).toEqual(['parley_cat']);
  });
});
