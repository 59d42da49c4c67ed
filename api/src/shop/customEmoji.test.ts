import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { roomEvents as wire, type RoomMessage } from '@parley/contract/rooms';
import { CUSTOM_EMOJI_PX, SHOP_ERR, type CustomEmojiList, type OwnedEmoji } from '@parley/contract/shop';
import { socketTestServer, next } from '../testing/socketClients.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';
import { giveGold } from '../testing/members.ts';

const t = socketTestServer();
const rig = storedRoomRig(t.server, (u) => t.open(u));

type Person = Awaited<ReturnType<typeof rig.account>>;
const premium = async (p: Person): Promise<Person> => ({ ...p, token: await t.server().deps.tokens.sign({ ...p, premiumUser: 'plus' }) });
const png = (width = 120, height = 90) =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 1 } } })
    .png()
    .toBuffer();
const upload = (who: { token: string }, name: string, body: Buffer, type = 'image/png') =>
  t.server().api(`/api/shop/emoji/custom?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${who.token}`, 'content-type': type },
    body,
  });
const uniqueName = () => `e${randomUUID().replace(/-/g, '').slice(0, 12)}`;

describe('uploading custom emoji', () => {
  it('is a premium perk: a free member is refused with 403 and a clear message', async () => {
    const free = await rig.account();
    const res = await upload(free, uniqueName(), await png());
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: SHOP_ERR.premiumOnly, code: 'premium_only' });
    const list = (await (await rig.call(free, '/api/shop/emoji/custom')).json()) as CustomEmojiList;
    expect(list).toMatchObject({ emoji: [], allowed: false });
  });

  it('refuses what is not an image, a file over 256 KB and a bad name with 400; stores a 64 px WebP', async () => {
    const ana = await premium(await rig.account());
    let res = await upload(ana, uniqueName(), Buffer.from('this is not a picture'));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: SHOP_ERR.notAnEmojiImage, code: 'not_an_image' });
    res = await upload(ana, uniqueName(), await png(), 'text/plain');
    expect(res.status).toBe(400);
    res = await upload(ana, uniqueName(), Buffer.alloc(256 * 1024 + 1, 7));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: SHOP_ERR.emojiTooLarge, code: 'file_too_large' });
    for (const bad of ['A', 'has space', 'parley_cat', 'x'.repeat(33)]) expect((await upload(ana, bad, await png())).status).toBe(400);

    const name = uniqueName();
    res = await upload(ana, name, await png());
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ name, url: `/api/shop/emoji/custom/${name}.webp`, pack: 'Your emoji' });
    const image = await t.server().api(`/api/shop/emoji/custom/${name}.webp`);
    expect(image.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: CUSTOM_EMOJI_PX, height: CUSTOM_EMOJI_PX });
    const picker = (await (await rig.call(ana, '/api/shop/emoji')).json()) as OwnedEmoji[];
    expect(picker.map((e) => e.name)).toContain(name);
  });

  it('a name is one person’s: taken names answer 409; only the owner deletes (another gets 404)', async () => {
    const [ana, bo] = [await premium(await rig.account()), await premium(await rig.account())];
    const name = uniqueName();
    expect((await upload(ana, name, await png())).status).toBe(201);
    const taken = await upload(bo, name, await png());
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ code: 'emoji_name_taken' });
    expect((await rig.call(bo, `/api/shop/emoji/custom/${name}`, { method: 'DELETE' })).status).toBe(404);
    expect((await t.server().api(`/api/shop/emoji/custom/${name}.webp`)).status).toBe(200);
    expect((await rig.call(ana, `/api/shop/emoji/custom/${name}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.server().api(`/api/shop/emoji/custom/${name}.webp`)).status).toBe(404);
  });
});

describe('custom emoji in group rooms', () => {
  it('marks the shortcodes the sender owns (bought or uploaded) for everyone; another’s emoji stay text', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own, bo] = people;
    const [so, sb, sc] = sockets;
    const name = uniqueName();
    expect((await upload(await premium(own), name, await png())).status).toBe(201);
    await giveGold(t.server(), bo.userId, 30);
    expect(
      (await rig.call(bo, '/api/shop/purchases', { method: 'POST', json: { itemId: 'pack-critters', idempotencyKey: randomUUID() } }))
        .status,
    ).toBe(200);
    const seen = async (s: typeof so, from: typeof so, text: string) => {
      const got = next<RoomMessage>(s, wire.message);
      const answer = await rig.post(from, room.roomId, text);
      if (!answer.ok) throw new Error(answer.message);
      return (await got).emoji;
    };
    // Both learn of their new emoji after connecting (the upload and the purchase refresh them).
    await expect.poll(() => seen(sc, so, `:${name}: and :parley_cat:`)).toEqual([name]);
    await expect.poll(() => seen(sc, sb, `:parley_cat: :${name}: :parley_sun:`)).toEqual(['parley_cat']);
    // Someone else's upload is not theirs to show: text, whoever writes it.
    expect(await seen(so, sc, `:${name}:`)).toBeUndefined();
    // What was marked stays marked in the room's history.
    const page = (await (await rig.call(bo, `/api/rooms/${room.roomId}/messages`)).json()) as { messages: RoomMessage[] };
    expect(page.messages.filter((m) => m.emoji).map((m) => m.emoji)).toEqual(expect.arrayContaining([[name], ['parley_cat']]));
    expect(page.messages.find((m) => m.text === `:${name}:`)?.emoji).toBeUndefined();
  });
});

describe('custom emoji in direct messages', () => {
  it('an uploaded emoji shows for the friend when its owner writes it; the friend’s copy stays text', async () => {
    const [ana, bo] = [await premium(await rig.account()), await rig.account()];
    await rig.befriend(ana, bo);
    const { roomId } = (await (await rig.call(ana, `/api/direct/${bo.username}`, { method: 'POST' })).json()) as { roomId: string };
    const [sa, sb] = [await rig.open(ana), await rig.open(bo)];
    await rig.watch(sa, roomId);
    await rig.watch(sb, roomId);
    const name = uniqueName();
    expect((await upload(ana, name, await png(), 'image/png')).status).toBe(201);
    const seen = async (to: typeof sa, from: typeof sa, text: string) => {
      const got = next<RoomMessage>(to, wire.message);
      expect((await rig.post(from, roomId, text)).ok).toBe(true);
      return (await got).emoji;
    };
    await expect.poll(() => seen(sb, sa, `:${name}:`)).toEqual([name]);
    expect(await seen(sa, sb, `:${name}: copied`)).toBeUndefined();
  });
});

describe('a deleted custom emoji', () => {
  it('keeps its name for its owner: nobody else takes it, and old messages never show another’s picture', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own, bo] = [await premium(people[0]), await premium(people[1])];
    const name = uniqueName();
    expect((await upload(own, name, await png())).status).toBe(201);
    const got = async () => {
      const seen = next<RoomMessage>(sockets[2], wire.message);
      expect((await rig.post(sockets[0], room.roomId, `:${name}:`)).ok).toBe(true);
      return (await seen).emoji;
    };
    await expect.poll(got).toEqual([name]);

    expect((await rig.call(own, `/api/shop/emoji/custom/${name}`, { method: 'DELETE' })).status).toBe(204);
    expect((await rig.call(own, `/api/shop/emoji/custom/${name}`, { method: 'DELETE' })).status).toBe(404);
    const list = (await (await rig.call(own, '/api/shop/emoji/custom')).json()) as CustomEmojiList;
    expect(list.emoji.map((e) => e.name)).not.toContain(name);

    const taken = await upload(bo, name, await png(80, 80));
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ code: 'emoji_name_taken' });
    // The message written before still names the emoji; its picture is gone, not replaced.
    const page = (await (await rig.call(bo, `/api/rooms/${room.roomId}/messages`)).json()) as { messages: RoomMessage[] };
    expect(page.messages.some((m) => m.emoji?.includes(name))).toBe(true);
    expect((await t.server().api(`/api/shop/emoji/custom/${name}.webp`)).status).toBe(404);

    // Its owner may use the name again.
    expect((await upload(own, name, await png())).status).toBe(201);
    expect((await t.server().api(`/api/shop/emoji/custom/${name}.webp`)).status).toBe(200);
    await expect.poll(got).toEqual([name]);
  });

  it('stays reserved when its owner deletes their account, so no one else’s picture appears in old chats', async () => {
    const [own, bo] = [await premium(await rig.account()), await premium(await rig.account())];
    const name = uniqueName();
    expect((await upload(own, name, await png())).status).toBe(201);
    // An account without a password confirms with its username.
    const gone = await rig.call(own, '/api/settings/delete-account', { method: 'POST', json: { password: own.username } });
    expect(gone.status).toBe(204);
    expect((await t.server().api(`/api/shop/emoji/custom/${name}.webp`)).status).toBe(404);
    expect((await upload(bo, name, await png())).status).toBe(409);
  });
});
