import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { OpenDirectAnswer } from '@parley/contract/direct';
import type { LinkPreviewAnswer } from '@parley/contract/links';
import { findLinks } from '@parley/contract/links';
import { person, said, socketTestServer, joinRoom } from '../testing/socketClients.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';
import { personWithAccount } from '../testing/members.ts';
import { pageCard } from './page.ts';

// A stand-in web site on this machine; the server may reach it only because the allow-list names it.
const env: Record<string, string> = {};
let site: http.Server;
let base = '';
const asked: http.IncomingMessage[] = [];
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  site = http.createServer((req, res) => {
    asked.push(req);
    if (req.url === '/cat.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    if (req.url === '/drawing.svg')
      return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'track=1' });
    res.end(`<!doctype html><html><head><title>Plain title</title>
      <meta property="og:title" content="Cats &amp; dogs">
      <meta name="description" content="All about pets">
      <meta property="og:site_name" content="Pet Site">
      <meta property="og:image" content="${req.url === '/svg' ? '/drawing.svg' : '/cat.png'}">
      </head><body>hello</body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  env.LINK_PREVIEW_ALLOW = base.slice('http://'.length);
});
afterAll(() => site.close());

const t = socketTestServer(env);
const rig = storedRoomRig(t.server, (u) => t.open(u));
const previewOf = async (who: { token: string }, roomId: string, messageId: number) => {
  const res = await rig.call(who, `/api/links/preview?roomId=${roomId}&messageId=${messageId}`);
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as LinkPreviewAnswer) : null };
};

describe('link previews', () => {
  it('a direct message’s link: title, description and an image fetched and re-encoded by the server, kept for the next reader', async () => {
    const [ana, bo, eve] = await Promise.all([rig.account('ana'), rig.account('bo'), rig.account('eve')]);
    await rig.befriend(ana, bo);
    const { roomId } = (await (await rig.call(ana, `/api/direct/${bo.username}`, { method: 'POST' })).json()) as OpenDirectAnswer;
    await rig.seed(roomId, ana.userId, [`look: ${base}/pets.`, 'no link here']);

    const before = asked.length;
    const { status, body } = await previewOf(bo, roomId, 1);
    expect(status).toBe(200);
    expect(body!.preview).toMatchObject({ url: `${base}/pets`, title: 'Cats & dogs', description: 'All about pets', siteName: 'Pet Site' });
    const page = asked[before]!;
    expect(page.headers['user-agent']).toMatch(/^ParleyLinkPreview/);
    expect(page.headers.cookie).toBeUndefined();

    const image = await t.server().api(body!.preview!.image!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 600, height: 400 });

    // The second reader is answered from what the server kept.
    const fetched = asked.length;
    expect((await previewOf(ana, roomId, 1)).body!.preview!.title).toBe('Cats & dogs');
    expect((await t.server().api(body!.preview!.image!)).status).toBe(200);
    expect(asked.length).toBe(fetched);

    expect((await previewOf(ana, roomId, 2)).body).toEqual({ preview: null });
    // Someone outside the conversation is refused, and nothing is fetched for them.
    expect((await previewOf(eve, roomId, 1)).status).toBe(403);
    expect((await rig.call(ana, `/api/links/preview?roomId=${roomId}&messageId=x`)).status).toBe(400);
  });

  it('serves no image it did not sign, and no SVG', async () => {
    const owner = await rig.account('own');
    const group = await rig.createRoom(owner);
    await rig.seed(group.roomId, owner.userId, [`${base}/svg`]);
    const { body } = await previewOf(owner, group.roomId, 1);
    expect(body!.preview!.image).toContain('drawing.svg');
    expect((await t.server().api(body!.preview!.image!)).status).toBe(404);
    const forged = `/api/links/image?u=${encodeURIComponent(`${base}/cat.png`)}&s=${'0'.repeat(64)}`;
    expect((await t.server().api(forged)).status).toBe(404);
    expect((await t.server().api(`/api/links/image?u=x&s=nothex`)).status).toBe(400);
  });

  it('never previews a link in a 1:1 chat with a stranger', async () => {
    const a = person();
    await personWithAccount(t.server(), { over: a });
    const { ka, kb, ra } = await t.pair(a, person(), { roomType: 'textChat' }, { roomType: 'textChat' });
    await joinRoom(ka, ra.roomId);
    await joinRoom(kb, ra.roomId);
    const m = await said(ka, ra.roomId, `${base}/stranger`);
    const before = asked.length;
    const { status, body } = await previewOf({ token: await t.server().deps.tokens.sign(a) }, ra.roomId, m.id);
    expect({ status, body }).toEqual({ status: 200, body: { preview: null } });
    expect(asked.length).toBe(before);
  });
});

describe('pageCard', () => {
  it('reads Open Graph first, then Twitter, then the title; decodes entities; resolves the image', () => {
    const card = pageCard(
      `<title>T &lt;1&gt;</title><meta name="twitter:description" content='Tw &#x2764; d'><meta name="twitter:image" content="img/a.jpg">`,
      new URL('https://example.org/dir/page'),
    );
    expect(card).toEqual({ title: 'T <1>', description: 'Tw ❤ d', siteName: 'example.org', imageUrl: 'https://example.org/dir/img/a.jpg' });
    expect(pageCard(`<meta property="og:image" content="javascript:alert(1)">`, new URL('https://e.org/')).imageUrl).toBeNull();
  });
});

describe('findLinks', () => {
  it('finds http and https links, leaving out trailing punctuation and other schemes', () => {
    expect(findLinks('see https://a.org/x, and (http://b.org/y) or javascript:alert(1) ftp://c.org').map((l) => l.url)).toEqual([
      'https://a.org/x',
      'http://b.org/y',
    ]);
    expect(findLinks('https://en.wikipedia.org/wiki/Foo_(bar).').map((l) => l.url)).toEqual(['https://en.wikipedia.org/wiki/Foo_(bar)']);
  });
});
