import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { OpenDirectAnswer } from '@parley/contract/direct';
import type { MessagePage } from '@parley/contract/rooms';
import type { SearchPage } from '@parley/contract/search';
import { person, said, socketTestServer, joinRoom } from '../testing/socketClients.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';
import { personWithAccount } from '../testing/members.ts';
import { snippetParts } from './search.ts';
import { messageStore, type NewMessage } from './messageStore.ts';

const t = socketTestServer();
const rig = storedRoomRig(t.server, (u) => t.open(u));

type Who = { token: string };
const find = async (who: Who, query: Record<string, string>) => {
  const res = await rig.call(who, `/api/rooms/search?${new URLSearchParams(query).toString()}`);
  return { status: res.status, body: (await res.json()) as SearchPage & { message?: string } };
};
const texts = (p: SearchPage) => p.hits.map((h) => h.snippet.map((s) => s.text).join(''));

async function directPair() {
  const [ana, bo] = await Promise.all([rig.account('ana'), rig.account('bo')]);
  await rig.befriend(ana, bo);
  const open = (await (await rig.call(ana, `/api/direct/${bo.username}`, { method: 'POST' })).json()) as OpenDirectAnswer;
  return { ana, bo, roomId: open.roomId };
}

describe('message search', () => {
  it('finds words in a direct conversation and in a group room, stemmed by the room language, with the match marked', async () => {
    const { ana, bo, roomId } = await directPair();
    await rig.seed(roomId, bo.userId, ['the zebrafish swam', 'nothing to see', 'see https://example.org/a for zebrafish pictures']);
    const group = await rig.createRoom(ana, { language: 'en' });
    await rig.seed(group.roomId, ana.userId, ['we were running zebrafish trials']);

    const all = await find(ana, { q: 'zebrafish' });
    expect(all.status).toBe(200);
    expect(all.body.hits).toHaveLength(3);
    const hit = all.body.hits.find((h) => h.roomId === roomId && h.messageId === 1)!;
    expect(hit).toMatchObject({ roomKind: 'direct', roomName: bo.username, senderName: bo.username, senderId: bo.userId });
    expect(hit.snippet).toContainEqual({ text: 'zebrafish', match: true });

    // English stems "run" to match "running" in the English room; the direct room has no language.
    const stemmed = await find(ana, { q: 'run' });
    expect(stemmed.body.hits.map((h) => h.roomId)).toEqual([group.roomId]);
    expect(stemmed.body.hits[0]!.roomName).toBe(group.name);

    expect(texts((await find(ana, { q: 'zebrafish', hasLink: 'true' })).body)).toEqual([
      'see https://example.org/a for zebrafish pictures',
    ]);
    expect((await find(ana, { q: 'zebrafish', from: bo.username.toUpperCase() })).body.hits).toHaveLength(2);
    expect((await find(ana, { q: 'zebrafish', roomId: group.roomId })).body.hits).toHaveLength(1);
    expect((await find(ana, { q: 'zebrafish', after: new Date(Date.now() + 86_400_000).toISOString() })).body.hits).toHaveLength(0);
    expect((await find(ana, { q: 'zebrafish', before: new Date(Date.now() + 86_400_000).toISOString() })).body.hits).toHaveLength(3);
  });

  it('has:picture finds pictures and GIFs, has:voice voice messages, and each hit says what it carries', async () => {
    const [ana, bo] = await Promise.all([rig.account('ana'), rig.account('bo')]);
    const group = await rig.createRoom(ana, { language: 'en' });
    await rig.join(bo, group.roomId);
    const db = t.server().deps.db;
    const attach = async (kind: 'image' | 'voice') => {
      const id = randomUUID();
      await db.execute(sql`insert into room_attachments (id, room_id, uploader_id, kind, mime, bytes, size)
        values (${id}, ${group.roomId}, ${bo.userId}, ${kind}, ${kind === 'image' ? 'image/webp' : 'audio/ogg'}, ${Buffer.from('x')}, 1)`);
      return id;
    };
    const store = messageStore(db);
    const send = (text: string, extra: Partial<NewMessage>) =>
      store.insert({ roomId: group.roomId, senderId: bo.userId, senderName: '', text, clientId: randomUUID(), mentions: [], ...extra });
    await send('the beach at dawn', { attachmentId: await attach('image') });
    await send('', { attachmentId: await attach('voice') });
    await send('', { media: { kind: 'gif', id: 'dance', width: 200, height: 200, alt: 'dancing' } });
    await send('', { media: { kind: 'sticker', id: 'cat', width: 160, height: 160, alt: 'a cat' } });
    await send('just words about the beach', {});

    const pictures = (await find(ana, { hasPicture: 'true' })).body.hits;
    expect(pictures.map((h) => h.content)).toEqual(['gif', 'picture']);
    expect((await find(ana, { q: 'beach', hasPicture: 'true' })).body.hits.map((h) => h.content)).toEqual(['picture']);
    expect((await find(ana, { hasVoice: 'true' })).body.hits.map((h) => h.content)).toEqual(['voice']);
    // Every hit of the room says what it carries; words alone carry nothing more.
    const all = (await find(ana, { roomId: group.roomId })).body.hits;
    expect(all.map((h) => h.content ?? null)).toEqual([null, 'sticker', 'gif', 'voice', 'picture']);
    // Someone outside the room finds none of it.
    const stranger = await rig.account('cy');
    expect((await find(stranger, { hasPicture: 'true' })).body.hits).toEqual([]);
  });

  it('pages newest first without repeating a hit', async () => {
    const { ana, bo, roomId } = await directPair();
    await rig.seed(
      roomId,
      bo.userId,
      Array.from({ length: 5 }, (_, i) => `pagination marmot ${i}`),
    );
    const first = await find(ana, { q: 'marmot', limit: '2' });
    expect(first.body.hits.map((h) => h.messageId)).toEqual([5, 4]);
    const second = await find(ana, { q: 'marmot', limit: '2', cursor: first.body.next! });
    const third = await find(ana, { q: 'marmot', limit: '2', cursor: second.body.next! });
    expect([...second.body.hits, ...third.body.hits].map((h) => h.messageId)).toEqual([3, 2, 1]);
    expect(third.body.next).toBeNull();
  });

  it('finds messages of every age newest first across rooms, pages and dates reaching through the time slices', async () => {
    const { ana, bo, roomId } = await directPair();
    const group = await rig.createRoom(ana, { language: 'en' });
    const other = await rig.createRoom(bo);
    // Days ago, in each slice searched (the last week, the last month, …, older than all): both
    // rooms, and a room Ana is not in whose message is newer than any of hers.
    await rig.seed(roomId, bo.userId, ['narwhal 2', 'narwhal 40', 'narwhal 900']);
    await rig.seed(group.roomId, ana.userId, ['narwhal 1', 'narwhal 100', 'narwhal 500']);
    await rig.seed(other.roomId, bo.userId, ['narwhal 0']);
    await t.server().deps.db.execute(sql`update room_messages set created_at = now() - split_part(text, ' ', 2)::int * interval '1 day'
      where text like 'narwhal %'`);
    const days = (p: SearchPage) => p.hits.map((h) => Math.round((Date.now() - h.sentAt) / 86_400_000));

    expect(days((await find(ana, { q: 'narwhal' })).body)).toEqual([1, 2, 40, 100, 500, 900]);
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = (await find(ana, { q: 'narwhal', limit: '4', ...(cursor && { cursor }) })).body;
      seen.push(...days(page));
      cursor = page.next ?? undefined;
    } while (cursor);
    expect(seen).toEqual([1, 2, 40, 100, 500, 900]);
    const ago = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
    expect(days((await find(ana, { q: 'narwhal', before: ago(30), after: ago(600) })).body)).toEqual([40, 100, 500]);
    expect(days((await find(ana, { after: ago(50), q: 'narwhal' })).body)).toEqual([1, 2, 40]);
    expect(days((await find(ana, { before: ago(450) })).body)).toEqual([500, 900]);
  });

  it('leaves out deleted messages and those of people blocked either way', async () => {
    const { ana, bo } = await directPair();
    const carl = await rig.account('carl');
    const group = await rig.createRoom(ana);
    await rig.join(bo, group.roomId);
    await rig.join(carl, group.roomId);
    await rig.seed(group.roomId, carl.userId, ['okapi from carl']);
    await rig.seed(group.roomId, bo.userId, ['okapi from bo', 'okapi gone']);
    await t
      .server()
      .deps.db.execute(sql`update room_messages set text = '', deleted_at = now() where room_id = ${group.roomId} and id = 3`);
    expect((await find(ana, { q: 'okapi' })).body.hits).toHaveLength(2);
    await t.server().deps.db.execute(sql`insert into user_blocks (blocker_id, blocked_id) values (${carl.userId}, ${ana.userId})`);
    expect(texts((await find(ana, { q: 'okapi' })).body)).toEqual(['okapi from bo']);
  });

  it('never returns a message of a room the searcher is not, or no longer, a member of', async () => {
    const { ana, bo, roomId } = await directPair();
    const eve = await rig.account('eve');
    await rig.seed(roomId, ana.userId, ['secret wombat plans']);
    // Someone else's direct conversation, asked for by its id too.
    expect((await find(eve, { q: 'wombat' })).body.hits).toEqual([]);
    expect((await find(eve, { q: 'wombat', roomId })).body.hits).toEqual([]);
    expect((await find(eve, { from: ana.username })).body.hits).toEqual([]);

    // A group room Eve left, and one she was banned from.
    const left = await rig.createRoom(ana);
    await rig.join(eve, left.roomId);
    await rig.seed(left.roomId, ana.userId, ['wombat in the left room']);
    expect((await find(eve, { q: 'wombat' })).body.hits).toHaveLength(1);
    expect((await rig.call(eve, `/api/groups/${left.roomId}/leave`, { method: 'POST' })).status).toBeLessThan(300);
    const banned = await rig.createRoom(ana);
    await rig.join(eve, banned.roomId);
    await rig.seed(banned.roomId, ana.userId, ['wombat in the banned room']);
    await rig.moderate(ana, banned.roomId, { action: 'ban', userId: eve.userId, reason: '' });
    expect((await find(eve, { q: 'wombat' })).body.hits).toEqual([]);

    // Friends no more: their direct conversation is closed, so is its search.
    await t.server().deps.db.execute(sql`delete from friendships where user_low in (${ana.userId}, ${bo.userId})`);
    expect((await find(bo, { q: 'wombat' })).body.hits).toEqual([]);

    // A stream's moderation room (kind channel) never answers, even to a member.
    const channel = await t
      .server()
      .deps.db.execute(sql`insert into stored_rooms (kind, channel_of) values ('channel', ${eve.userId}) returning id`);
    const channelId = (channel as unknown as { rows: Array<{ id: string }> }).rows[0]!.id;
    await t.server().deps.db.execute(sql`insert into room_members (room_id, user_id) values (${channelId}, ${eve.userId})`);
    await rig.seed(channelId, eve.userId, ['wombat live chat line']);
    expect((await find(eve, { q: 'wombat' })).body.hits).toEqual([]);
  });

  it('a 1:1 chat with a stranger is never searchable (its messages are not kept)', async () => {
    const a = person();
    const server = t.server();
    await personWithAccount(server, { over: a });
    const { ka, kb, ra } = await t.pair(a, person(), { roomType: 'textChat' }, { roomType: 'textChat' });
    await joinRoom(ka, ra.roomId);
    await joinRoom(kb, ra.roomId);
    await said(ka, ra.roomId, 'stranger quokka hello');
    const token = await server.deps.tokens.sign(a);
    expect((await find({ token }, { q: 'quokka' })).body.hits).toEqual([]);
    expect((await find({ token }, { q: 'quokka', roomId: ra.roomId })).body.hits).toEqual([]);
  });

  it('refuses a bad query with 400 and a message, and limits how often one searches', async () => {
    const me = await rig.account('lim');
    expect((await find(me, {})).status).toBe(400);
    expect((await find(me, { q: 'x', roomId: 'nope' })).status).toBe(400);
    expect((await find(me, { q: 'x', after: 'yesterday-ish' })).status).toBe(400);
    expect((await find(me, { q: 'x', cursor: "1:2'; drop table users" })).status).toBe(400);
    expect((await find(me, { q: 'x'.repeat(201) })).status).toBe(400);
    const anon = await t.server().api('/api/rooms/search?q=x');
    expect(anon.status).toBe(401);
    let last = 200;
    for (let i = 0; i < 35 && last !== 429; i++) last = (await find(me, { q: `word${i}` })).status;
    expect(last).toBe(429);
  });
});

describe('a page around a message', () => {
  it('brings the message with those before and after it, for members only', async () => {
    const { ana, bo, roomId } = await directPair();
    await rig.seed(
      roomId,
      bo.userId,
      Array.from({ length: 30 }, (_, i) => `line ${i + 1}`),
    );
    const res = await rig.call(ana, `/api/rooms/${roomId}/messages?around=10&limit=10`);
    const page = (await res.json()) as MessagePage;
    expect(page.messages.map((m) => m.id)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(page).toMatchObject({ hasMore: true, hasNewer: true });
    const eve = await rig.account('eve');
    expect((await rig.call(eve, `/api/rooms/${roomId}/messages?around=10`)).status).toBe(403);
    expect((await rig.call(ana, `/api/rooms/${roomId}/messages?around=10&before=3`)).status).toBe(400);
  });
});

describe('snippets', () => {
  it('splits the marked matches from the text around them', () => {
    expect(snippetParts('a \uE000b\uE001 c \uE000d\uE001')).toEqual([
      { text: 'a ', match: false },
      { text: 'b', match: true },
      { text: ' c ', match: false },
      { text: 'd', match: true },
    ]);
  });
});
