import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatEvents, type ChatMessage } from '@parley/contract/chat';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { giveGold, member } from '../testing/members.ts';
import { acknowledge, next, sendWithAck, socketClients } from '../testing/socketClients.ts';

describe('custom emoji in a relayed chat message', () => {
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
    const { ka, kb } = await clients.pair(a.user, b.user, { roomType: 'textChat' }, { roomType: 'textChat' });
    acknowledge(ka, kb);
    // The buyer's emoji loaded as they connected (after the purchase): their first message is marked.
    await expect
      .poll(async () => {
        const got = next<ChatMessage>(kb, chatEvents.message);
        await sendWithAck(ka, { id: randomUUID(), text: 'hi :parley_cat: and :parley_sun: :parley_cat:' });
        return (await got).emoji;
      })
      .toEqual(['parley_cat']);
    // The partner owns none: their shortcodes stay text.
    const got = next<ChatMessage>(ka, chatEvents.message);
    await sendWithAck(kb, { id: randomUUID(), text: ':parley_cat: :parley_fox:' });
    expect((await got).emoji).toBeUndefined();
  });

  it('refreshes a connected user’s emoji when they buy a pack', async () => {
    const [a, b] = [await member(server), await member(server)];
    const { ka, kb } = await clients.pair(a.user, b.user, { roomType: 'textChat' }, { roomType: 'textChat' });
    acknowledge(ka, kb);
    await giveGold(server, a.userId, 40);
    expect((await a.post('/api/shop/purchases', { itemId: 'pack-weather', idempotencyKey: randomUUID() })).status).toBe(200);
    await expect
      .poll(async () => {
        const got = next<ChatMessage>(kb, chatEvents.message);
        await sendWithAck(ka, { id: randomUUID(), text: ':parley_rainbow:' });
        return (await got).emoji;
      })
      .toEqual(['parley_rainbow']);
  });
});
