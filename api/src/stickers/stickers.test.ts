import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { GIF_SEARCHES_PER_MINUTE, MEDIA_ERR, type GifSearch, type StickerList } from '@parley/contract/media';
import { roomEvents as wire, type MessagePage, type RoomMessage } from '@parley/contract/rooms';
import { eq } from 'drizzle-orm';
import { reports, wallets } from '../db/schema.ts';
import { next, person, socketTestServer } from '../testing/socketClients.ts';
import { personWithAccount } from '../testing/members.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';

const gifDir = mkdtempSync(path.join(tmpdir(), 'parley-gifs-'));
const t = socketTestServer({ GIF_DIR: gifDir });
const rig = storedRoomRig(t.server, (u) => t.open(u));

const gif = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .gif()
    .toBuffer();

beforeAll(async () => {
  await writeFile(path.join(gifDir, 'happy-cat.gif'), await gif(40, 30));
  await writeFile(path.join(gifDir, 'dance_party.gif'), await gif(20, 20));
  await writeFile(path.join(gifDir, 'thumbs.gif'), await gif(24, 24));
  await writeFile(path.join(gifDir, 'tags.json'), JSON.stringify({ 'thumbs.gif': ['yes', 'approve'] }));
  // Not a GIF whatever its name says, and a name no GIF id allows: neither is listed.
  await writeFile(path.join(gifDir, 'fake.gif'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(gifDir, 'Bad Name!.gif'), await gif(10, 10));
});
afterAll(() => rm(gifDir, { recursive: true, force: true }));

describe('stickers', () => {
  it('sends a free sticker in a group room; a sold pack’s only after buying it in the store', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own] = people;
    const list = (await (await rig.call(own, '/api/stickers')).json()) as StickerList;
    expect(list.packs.map((p) => [p.id, p.usable, p.itemId])).toEqual([
      ['hello', true, undefined],
      ['party', false, 'stickers-party'],
    ]);

    const gets = next<RoomMessage>(sockets[1], wire.message);
    const sent = await rig.post(sockets[0], room.roomId, '', { sticker: 'hello/wave' });
    expect(sent).toMatchObject({ ok: true });
    expect((await gets).media).toEqual({
      kind: 'sticker',
      id: 'hello/wave',
      url: '/stickers/hello/wave.webp',
      width: 160,
      height: 160,
      alt: 'Waving hand',
    });

    expect(await rig.post(sockets[0], room.roomId, '', { sticker: 'party/cake' })).toEqual({
      ok: false,
      message: MEDIA_ERR.notOwned,
      code: 'not_owned',
    });
    // Bought through the store's one purchase path, the pack is theirs.
    await t
      .server()
      .deps.db.insert(wallets)
      .values({ userId: own.userId, gold: 500 })
      .onConflictDoUpdate({ target: wallets.userId, set: { gold: 500 } });
    const bought = await rig.call(own, '/api/shop/purchases', {
      method: 'POST',
      json: { itemId: 'stickers-party', idempotencyKey: crypto.randomUUID() },
    });
    expect(bought.status).toBe(200);
    const after = (await (await rig.call(own, '/api/stickers')).json()) as StickerList;
    expect(after.packs.find((p) => p.id === 'party')?.usable).toBe(true);
    expect(await rig.post(sockets[0], room.roomId, '', { sticker: 'party/cake' })).toMatchObject({ ok: true });
    // Owning is per person: another member of the room still cannot send it.
    expect(await rig.post(sockets[1], room.roomId, '', { sticker: 'party/cake' })).toMatchObject({ ok: false, code: 'not_owned' });

    const page = (await (await rig.call(people[2], `/api/rooms/${room.roomId}/messages`)).json()) as MessagePage;
    expect(page.messages.map((m) => m.media?.id)).toEqual(['hello/wave', 'party/cake']);
  });

  it('refuses unknown stickers, addresses in place of ids, and two things at once', async () => {
    const { room, sockets } = await rig.gathering();
    expect(await rig.post(sockets[0], room.roomId, '', { sticker: 'hello/nope' })).toMatchObject({ ok: false, code: 'unknown_sticker' });
    expect(await rig.post(sockets[0], room.roomId, '', { sticker: 'nope/wave' })).toMatchObject({ ok: false, code: 'unknown_sticker' });
    for (const bad of ['https://evil.example/x.webp', '../../etc/passwd', '/stickers/hello/wave.webp'])
      expect(await rig.post(sockets[0], room.roomId, '', { sticker: bad })).toMatchObject({ ok: false, code: 'validation_failed' });
    expect(await rig.post(sockets[0], room.roomId, '', { gif: 'https://evil.example/a.gif' })).toMatchObject({
      ok: false,
      code: 'validation_failed',
    });
    expect(await rig.post(sockets[0], room.roomId, '', { sticker: 'hello/wave', gif: 'happy-cat' })).toMatchObject({
      ok: false,
      message: MEDIA_ERR.oneThing,
    });
  });

  it('cannot be sent to a room the sender is not in, nor in a 1:1 chat with a stranger', async () => {
    const { room } = await rig.gathering();
    const outsider = await rig.account('out');
    const so = await rig.open(outsider);
    expect(await rig.post(so, room.roomId, '', { sticker: 'hello/wave' })).toMatchObject({ ok: false });

    const stranger = await personWithAccount(t.server());
    const { ka, ra } = await t.pair(stranger.user, person(), { roomType: 'textChat' }, { roomType: 'textChat' });
    expect(await rig.watch(ka, ra.roomId)).toMatchObject({ ok: true });
    expect(await rig.post(ka, ra.roomId, '', { sticker: 'hello/wave' })).toMatchObject({
      ok: false,
      code: 'not_allowed',
      message: MEDIA_ERR.notHere,
    });
    expect(await rig.post(ka, ra.roomId, '', { gif: 'happy-cat' })).toMatchObject({ ok: false, code: 'not_allowed' });
  });
});

describe('the GIF library', () => {
  it('lists GIFs by their names’ words and tags.json, leaves out what is not a GIF, and serves them safely', async () => {
    const ana = await rig.account('ana');
    const search = async (q?: string) =>
      (await (await rig.call(ana, `/api/gifs${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`)).json()) as GifSearch;
    const all = await search();
    expect(all.configured).toBe(true);
    expect(all.gifs.map((g) => g.id).sort()).toEqual(['dance_party', 'happy-cat', 'thumbs']);
    expect((await search('cat')).gifs).toEqual([
      { id: 'happy-cat', url: '/api/gifs/file/happy-cat.gif', width: 40, height: 30, alt: 'happy cat' },
    ]);
    expect((await search('appr')).gifs.map((g) => g.id)).toEqual(['thumbs']);
    expect((await search('party dance')).gifs.map((g) => g.id)).toEqual(['dance_party']);
    expect((await search('dog')).gifs).toEqual([]);

    const file = await t.server().api('/api/gifs/file/happy-cat.gif');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/gif');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 6)
        .toString('latin1'),
    ).toBe('GIF89a');
    for (const bad of ['fake.gif', '..%2Ftags.json', 'tags.json', 'nope.gif'])
      expect([400, 404]).toContain((await t.server().api(`/api/gifs/file/${bad}`)).status);
    expect((await rig.call(ana, '/api/gifs?q=' + 'x'.repeat(41))).status).toBe(400);
    expect((await t.server().api('/api/gifs')).status).toBe(401);
  });

  it('sends a GIF of the library in a direct conversation, and refuses one it does not have', async () => {
    const [ana, bo] = await Promise.all([rig.account('ana'), rig.account('bo')]);
    await rig.befriend(ana, bo);
    const { roomId } = (await (await rig.call(ana, `/api/direct/${bo.username}`, { method: 'POST' })).json()) as { roomId: string };
    const [sa, sb] = await Promise.all([rig.open(ana), rig.open(bo)]);
    await rig.watch(sa, roomId);
    await rig.watch(sb, roomId);
    const got = next<RoomMessage>(sb, wire.message);
    expect(await rig.post(sa, roomId, '', { gif: 'happy-cat' })).toMatchObject({ ok: true });
    expect((await got).media).toEqual({
      kind: 'gif',
      id: 'happy-cat',
      url: '/api/gifs/file/happy-cat.gif',
      width: 40,
      height: 30,
      alt: 'happy cat',
    });
    expect(await rig.post(sa, roomId, '', { gif: 'fake' })).toEqual({ ok: false, message: MEDIA_ERR.unknownGif, code: 'unknown_gif' });
    const list = (await (await rig.call(bo, '/api/direct')).json()) as { conversations: Array<{ lastMessage: { text: string } }> };
    expect(list.conversations[0]?.lastMessage.text).toBe('📎');
  });

  it('limits searches per person', async () => {
    const cy = await rig.account('cy');
    let refused: Response | undefined;
    for (let i = 0; i <= GIF_SEARCHES_PER_MINUTE && !refused; i++) {
      const res = await rig.call(cy, '/api/gifs?q=cat');
      if (res.status !== 200) refused = res;
    }
    expect(refused?.status).toBe(429);
    expect(await refused?.json()).toMatchObject({ message: MEDIA_ERR.tooManySearches, code: 'rate_limited' });
  });
});

describe('reports', () => {
  it('a reported sticker or GIF is kept by name with the report, as the server checked it', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own, bo] = people;
    expect(await rig.post(sockets[1], room.roomId, '', { sticker: 'hello/wave' })).toMatchObject({ ok: true });
    expect(await rig.post(sockets[1], room.roomId, '', { gif: 'happy-cat' })).toMatchObject({ ok: true });
    const page = (await (await rig.call(own, `/api/rooms/${room.roomId}/messages`)).json()) as MessagePage;
    const gifMessage = page.messages.find((m) => m.media?.kind === 'gif')!;
    const res = await rig.call(own, '/api/reports', {
      method: 'POST',
      json: { reportedUserId: bo.userId, context: 'group', roomId: room.roomId, reason: 'spam', messageId: gifMessage.id, block: false },
    });
    expect(res.status).toBe(201);
    const [row] = await t.server().deps.db.select().from(reports).where(eq(reports.reporterId, own.userId));
    expect(row!.messages!.map((m) => [m.from, m.media?.kind, m.media?.id, m.media?.alt, m.reported ?? false])).toEqual([
      ['reported', 'sticker', 'hello/wave', 'Waving hand', false],
      ['reported', 'gif', 'happy-cat', 'happy cat', true],
    ]);
  });
});

describe('a server without a GIF library', () => {
  const bare = socketTestServer();
  it('says so and sends none', async () => {
    const r = storedRoomRig(bare.server, (u) => bare.open(u));
    const { people, room, sockets } = await r.gathering();
    expect(await (await r.call(people[0], '/api/gifs?q=cat')).json()).toEqual({ configured: false, gifs: [] });
    expect(await r.post(sockets[0], room.roomId, '', { gif: 'happy-cat' })).toMatchObject({ ok: false, code: 'unknown_gif' });
  });
});

describe('a Tenor-compatible GIF provider', () => {
  // A local stand-in speaking the provider's search API: /search, /posts and the media files.
  const asked: URL[] = [];
  let gifBytes: Buffer;
  const standIn = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    asked.push(url);
    const base = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    const result = (id: string, words: string) => ({
      id,
      content_description: words,
      media_formats: { gif: { url: `${base}/media/${id}.gif`, dims: [48, 36] } },
    });
    const all = [result('111', 'waving otter'), result('222', 'dancing otter')];
    // Its API wants the key; its media files, like the real ones, are public.
    if (url.pathname.startsWith('/v2/') && url.searchParams.get('key') !== 'test-key') return res.writeHead(401).end();
    if (url.pathname === '/v2/search')
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ results: all.filter((r) => r.content_description.includes(url.searchParams.get('q') ?? '')) }));
    if (url.pathname === '/v2/posts')
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ results: all.filter((r) => r.id === url.searchParams.get('ids')) }));
    if (url.pathname === '/media/111.gif') return res.writeHead(200, { 'content-type': 'image/gif' }).end(gifBytes);
    if (url.pathname === '/media/222.gif') return res.writeHead(200, { 'content-type': 'image/gif' }).end('<svg/>');
    res.writeHead(404).end();
  });
  // The servers read their environment as they start, after the stand-in is listening (hooks run in order).
  const configured = { GIF_DIR: gifDir, GIF_PROVIDER_URL: '', GIF_PROVIDER_KEY: 'test-key' };
  const noKey = { GIF_DIR: gifDir, GIF_PROVIDER_URL: '' };
  beforeAll(async () => {
    gifBytes = await gif(48, 36);
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    configured.GIF_PROVIDER_URL = noKey.GIF_PROVIDER_URL = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/v2`;
  });
  afterAll(() => new Promise<void>((resolve) => standIn.close(() => resolve())));

  const withProvider = socketTestServer(configured);
  const keyless = socketTestServer(noKey);

  it('searches it after the library, sends one of its GIFs after asking it, and serves the file through this server', async () => {
    const r = storedRoomRig(withProvider.server, (u) => withProvider.open(u));
    const { people, room, sockets } = await r.gathering();
    const found = (await (await r.call(people[0], '/api/gifs?q=otter')).json()) as GifSearch;
    expect(found.gifs).toEqual([
      { id: 'p.111', url: '/api/gifs/file/p.111.gif', width: 48, height: 36, alt: 'waving otter' },
      { id: 'p.222', url: '/api/gifs/file/p.222.gif', width: 48, height: 36, alt: 'dancing otter' },
    ]);
    expect(asked.at(-1)?.searchParams.get('q')).toBe('otter');
    expect(await r.post(sockets[0], room.roomId, '', { gif: 'p.111' })).toMatchObject({ ok: true, message: { media: { id: 'p.111' } } });
    expect(await r.post(sockets[0], room.roomId, '', { gif: 'p.999' })).toMatchObject({ ok: false, code: 'unknown_gif' });
    expect(asked.some((u) => u.pathname === '/v2/posts' && u.searchParams.get('ids') === '999')).toBe(true);

    const file = await withProvider.server().api('/api/gifs/file/p.111.gif');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await file.arrayBuffer()).equals(gifBytes)).toBe(true);
    // What the provider serves as a GIF must be one.
    expect((await withProvider.server().api('/api/gifs/file/p.222.gif')).status).toBe(404);
  });

  it('is never contacted without its key', async () => {
    const r = storedRoomRig(keyless.server, (u) => keyless.open(u));
    const { people, room, sockets } = await r.gathering();
    const before = asked.length;
    expect(((await (await r.call(people[0], '/api/gifs?q=otter')).json()) as GifSearch).gifs).toEqual([]);
    expect(await r.post(sockets[0], room.roomId, '', { gif: 'p.111' })).toMatchObject({ ok: false, code: 'unknown_gif' });
    expect((await keyless.server().api('/api/gifs/file/p.111.gif')).status).toBe(404);
    expect(asked.length).toBe(before);
  });
});
