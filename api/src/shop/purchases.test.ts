import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { SHOP_ERR, type OwnedEmoji, type StoreItem } from '@parley/contract/shop';
import { ownedItems, storeItems } from '../db/schema.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { giveGold, goldOf, member } from '../testing/members.ts';
import { shopService } from './service.ts';
import { shopStore } from './store.ts';

// Runs on PGlite, and on PostgreSQL when DATABASE_URL is set (the test server makes its own database).
describe(`buying with gold (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let server: TestServer;
  let shop: ReturnType<typeof shopService>;
  const told: string[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    shop = shopService({ store: shopStore(server.deps.db), emojiChanged: (u) => told.push(`emoji:${u}`), goldChanged: () => undefined });
    // A hundred 10-gold items for the race below, beside the seeded catalogue.
    await server.deps.db.insert(storeItems).values(
      Array.from({ length: 100 }, (_, i) => ({
        id: `race-${i}`,
        name: `Race ${i}`,
        kind: 'flair' as const,
        price: 10,
        description: 'test item',
        imageUrl: '/store/flair-star.svg',
        sort: 1000 + i,
      })),
    );
  }, 60_000);
  afterAll(() => server?.close());

  it('100 parallel purchases of 10-gold items with 50 gold: exactly 5 succeed and the balance is 0', async () => {
    const m = await member(server);
    await giveGold(server, m.userId, 50);
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => shop.buy(m.userId, { itemId: `race-${i}`, idempotencyKey: randomUUID() })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(new Set(refused.map((r) => (r.reason as Error).message))).toEqual(new Set([SHOP_ERR.notEnoughGold]));
    expect(await goldOf(server, m.userId)).toBe(0);
    const owned = await server.deps.db
      .select()
      .from(ownedItems)
      .where(and(eq(ownedItems.userId, m.userId), like(ownedItems.itemId, 'race-%')));
    expect(owned).toHaveLength(5);
  });

  it('the same item bought 100 times at once is owned once and charged once', async () => {
    const m = await member(server);
    await giveGold(server, m.userId, 50);
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, () => shop.buy(m.userId, { itemId: 'race-0', idempotencyKey: randomUUID() })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await goldOf(server, m.userId)).toBe(40);
  });

  it('the same idempotency key, sent twice or a hundred times at once, charges once and answers the first result', async () => {
    const m = await member(server);
    await giveGold(server, m.userId, 100);
    const idempotencyKey = randomUUID();
    const answers = await Promise.all(Array.from({ length: 100 }, () => shop.buy(m.userId, { itemId: 'pack-weather', idempotencyKey })));
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(new Set([JSON.stringify({ itemId: 'pack-weather', gold: 60 })]));
    expect(await shop.buy(m.userId, { itemId: 'pack-weather', idempotencyKey })).toEqual({ itemId: 'pack-weather', gold: 60 });
    expect(await goldOf(server, m.userId)).toBe(60);
    expect(told).toContain(`emoji:${m.userId}`);
    // A failed attempt is answered the same on retry, even once the gold is there.
    const poor = await member(server);
    const key = randomUUID();
    await expect(shop.buy(poor.userId, { itemId: 'frame-gold', idempotencyKey: key })).rejects.toThrow(SHOP_ERR.notEnoughGold);
    await giveGold(server, poor.userId, 500);
    await expect(shop.buy(poor.userId, { itemId: 'frame-gold', idempotencyKey: key })).rejects.toThrow(SHOP_ERR.notEnoughGold);
    expect(await goldOf(server, poor.userId)).toBe(500);
  });

  it('gifts of gold follow the same rules: never below zero, once per key, both ways at once without deadlock', async () => {
    const a = await member(server);
    const b = await member(server);
    await giveGold(server, a.userId, 30);
    await giveGold(server, b.userId, 30);
    const key = randomUUID();
    const twice = await Promise.all([1, 2].map(() => shop.gift(a.userId, { toUserId: b.userId, amount: 20, idempotencyKey: key })));
    expect(twice).toEqual([{ gold: 10 }, { gold: 10 }]);
    expect(await goldOf(server, b.userId)).toBe(50);
    await expect(shop.gift(a.userId, { toUserId: b.userId, amount: 11, idempotencyKey: randomUUID() })).rejects.toThrow(
      SHOP_ERR.notEnoughGold,
    );
    await expect(shop.gift(a.userId, { toUserId: a.userId, amount: 1, idempotencyKey: randomUUID() })).rejects.toThrow(SHOP_ERR.giftToSelf);
    await expect(shop.gift(a.userId, { toUserId: randomUUID(), amount: 1, idempotencyKey: randomUUID() })).rejects.toThrow(
      SHOP_ERR.recipientNotFound,
    );
    const crossing = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        i % 2
          ? shop.gift(a.userId, { toUserId: b.userId, amount: 1, idempotencyKey: randomUUID() })
          : shop.gift(b.userId, { toUserId: a.userId, amount: 1, idempotencyKey: randomUUID() }),
      ),
    );
    expect(crossing.every((r) => r.status === 'fulfilled')).toBe(true);
    expect((await goldOf(server, a.userId)) + (await goldOf(server, b.userId))).toBe(60);
  });

  describe('over HTTP', () => {
    it('lists, searches and filters the store, marking what the user owns', async () => {
      const m = await member(server);
      await giveGold(server, m.userId, 30);
      expect((await m.post('/api/shop/purchases', { itemId: 'pack-critters', idempotencyKey: randomUUID() })).status).toBe(200);
      const all = (await (await m.get('/api/shop/items')).json()) as StoreItem[];
      expect(all.find((i) => i.id === 'pack-critters')).toMatchObject({ owned: true, kind: 'emojiPack', price: 30 });
      expect(all.find((i) => i.id === 'pack-weather')).toMatchObject({ owned: false });
      const found = (await (await m.get('/api/shop/items?q=rainbow')).json()) as StoreItem[];
      expect(found.map((i) => i.id)).toEqual(['pack-weather']);
      const frames = (await (await m.get('/api/shop/items?kind=frame')).json()) as StoreItem[];
      expect(frames.map((i) => i.id).sort()).toEqual(['frame-gold', 'frame-wave']);
      const emoji = (await (await m.get('/api/shop/emoji')).json()) as OwnedEmoji[];
      expect(emoji.map((e) => e.name)).toEqual(['parley_cat', 'parley_fox', 'parley_owl', 'parley_frog']);
      expect(emoji[0]).toMatchObject({ url: '/emoji/parley_cat.svg', pack: 'Critters' });
    });

    it('answers a clear message for too little gold, an owned item and an unknown one', async () => {
      const m = await member(server);
      let res = await m.post('/api/shop/purchases', { itemId: 'pack-snacks', idempotencyKey: randomUUID() });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ message: SHOP_ERR.notEnoughGold, code: 'not_enough_gold' });
      await giveGold(server, m.userId, 200);
      expect((await m.post('/api/shop/purchases', { itemId: 'pack-snacks', idempotencyKey: randomUUID() })).status).toBe(200);
      res = await m.post('/api/shop/purchases', { itemId: 'pack-snacks', idempotencyKey: randomUUID() });
      expect(await res.json()).toEqual({ message: SHOP_ERR.alreadyOwned, code: 'already_owned' });
      res = await m.post('/api/shop/purchases', { itemId: 'no-such-item', idempotencyKey: randomUUID() });
      expect(res.status).toBe(404);
      // A page that shows Spanish is answered in Spanish.
      const authorization = `Bearer ${await server.deps.tokens.sign(m.user)}`;
      res = await server.api('/api/shop/purchases', {
        method: 'POST',
        json: { itemId: 'pack-snacks', idempotencyKey: randomUUID() },
        headers: { authorization, 'Accept-Language': 'es-MX,es;q=0.9' },
      });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ message: 'Ya tienes este artículo.', code: 'already_owned' });
      expect(await goldOf(server, m.userId)).toBe(150);
    });

    it('validates every input and refuses without a sign-in', async () => {
      const m = await member(server);
      for (const body of [
        {},
        { itemId: 'pack-snacks' },
        { itemId: 'pack-snacks', idempotencyKey: 'x' },
        { itemId: '../x', idempotencyKey: randomUUID() },
      ]) {
        const res = await m.post('/api/shop/purchases', body);
        expect(res.status).toBe(400);
        expect(((await res.json()) as { code: string }).code).toBe('validation_failed');
      }
      expect((await m.get('/api/shop/items?kind=weapons')).status).toBe(400);
      expect((await m.get(`/api/shop/items?q=${'a'.repeat(41)}`)).status).toBe(400);
      expect((await server.api('/api/shop/items')).status).toBe(401);
      expect(
        (await server.api('/api/shop/purchases', { method: 'POST', json: { itemId: 'pack-snacks', idempotencyKey: randomUUID() } })).status,
      ).toBe(401);
    });

    it('a purchase key is the buyer’s own: another user with the same key buys for themselves, paying themselves', async () => {
      const a = await member(server);
      const b = await member(server);
      await giveGold(server, a.userId, 40);
      await giveGold(server, b.userId, 40);
      const idempotencyKey = randomUUID();
      expect((await a.post('/api/shop/purchases', { itemId: 'pack-weather', idempotencyKey })).status).toBe(200);
      expect((await b.post('/api/shop/purchases', { itemId: 'pack-weather', idempotencyKey })).status).toBe(200);
      expect([await goldOf(server, a.userId), await goldOf(server, b.userId)]).toEqual([0, 0]);
    });
  });
});
