import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import {
  ATTACHMENT_ERR,
  ATTACHMENT_STORAGE_CAP_BYTES,
  ATTACHMENTS_PER_ROOM_MINUTE,
  ATTACHMENTS_PER_USER_MINUTE,
  type MessageAttachment,
} from '@parley/contract/attachments';
import { roomEvents as wire, type MessagePage, type RoomMessage } from '@parley/contract/rooms';
import { next, person, socketTestServer } from '../testing/socketClients.ts';
import { personWithAccount } from '../testing/members.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';
import { webmVoice } from '../testing/voiceFiles.ts';
import { IMAGE_TOO_LARGE_PIXELS } from '../platform/imageUploads.ts';
import { attachmentStore } from './attachments.ts';

const t = socketTestServer();
const rig = storedRoomRig(t.server, (u) => t.open(u));

const photo = (width = 400, height = 300) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 140, b: 200 } } })
    .jpeg()
    .toBuffer();
const upload = (who: { token: string } | null, roomId: string, body: Buffer, type = 'image/jpeg', kind = 'image') =>
  t.server().api(`/api/rooms/${roomId}/attachments?kind=${kind}`, {
    method: 'POST',
    headers: { ...(who && { authorization: `Bearer ${who.token}` }), 'content-type': type },
    body,
  });
const fetchFile = (who: { token: string } | null, url: string) =>
  t.server().api(url, { headers: who ? { authorization: `Bearer ${who.token}` } : {} });

/** CRC-32 as PNG chunks carry it. */
function crc32(b: Buffer) {
  let c = ~0;
  for (const byte of b) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
const chunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
/** A PNG of a few hundred bytes whose header claims `w`×`h` pixels: decoding it would take gigabytes. */
function bombPng(w: number, h: number) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const idat = Buffer.from('789c636000000000010001', 'hex');
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

describe('uploading pictures to a room', () => {
  it('re-encodes a photo as WebP without its EXIF and location, with a thumbnail, for the room’s members', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own, bo] = people;
    const secret = 'Home of Own, 51.5 N';
    const tagged = await sharp(await photo(3000, 1500))
      .withExif({ IFD0: { Copyright: secret, ImageDescription: secret }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .jpeg()
      .toBuffer();
    expect(tagged.includes(secret)).toBe(true);
    const res = await upload(own, room.roomId, tagged);
    expect(res.status).toBe(201);
    const a = (await res.json()) as MessageAttachment;
    expect(a).toMatchObject({ kind: 'image', width: 2048, height: 1024 });

    const gets = next<RoomMessage>(sockets[1], wire.message);
    const sent = await rig.post(sockets[0], room.roomId, '', { attachment: a.id });
    expect(sent.ok).toBe(true);
    expect((await gets).attachment).toEqual(a);

    for (const [url, width] of [
      [a.url, 2048],
      [a.thumbUrl!, 480],
    ] as const) {
      const file = await fetchFile(bo, url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/webp');
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('cache-control')).toBe('private, no-store');
      const bytes = Buffer.from(await file.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.exif, meta.icc]).toEqual(['webp', width, undefined, undefined]);
      expect(bytes.includes(secret)).toBe(false);
    }
    // A reply to it quotes it as an attachment, not as a deleted message.
    if (!sent.ok) throw new Error(sent.message);
    const reply = await rig.post(sockets[1], room.roomId, 'nice', { replyTo: sent.message.id });
    expect(reply.ok && reply.message.replyTo).toMatchObject({ id: sent.message.id, text: '📎' });
    // History carries it too.
    const page = (await (await rig.call(bo, `/api/rooms/${room.roomId}/messages`)).json()) as MessagePage;
    expect(page.messages.at(-2)?.attachment).toEqual(a);
  });

  it('answers once the thumbnail is made; the full picture follows, upright at the size announced, and a fetch waits for it', async () => {
    const { people, room } = await rig.gathering();
    const [own, bo] = people;
    // Stored sideways (EXIF orientation 6), as phones do: 3000 × 2000 stored is 2000 × 3000 upright.
    const sideways = await sharp(await photo(3000, 2000))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const res = await upload(own, room.roomId, sideways);
    expect(res.status).toBe(201);
    const a = (await res.json()) as MessageAttachment;
    expect(a).toMatchObject({ width: 1365, height: 2048 });
    // Fetched at once (its full size may still be encoding): the answer waits for it.
    const full = await fetchFile(own, a.url);
    expect(full.status).toBe(200);
    expect(await sharp(Buffer.from(await full.arrayBuffer())).metadata()).toMatchObject({ width: 1365, height: 2048 });
    const thumb = await fetchFile(own, a.thumbUrl!);
    expect(await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).toMatchObject({ width: 320, height: 480 });

    // The store: a full picture not yet there is "preparing" (its thumbnail is served), then served and counted at its size.
    const store = attachmentStore(t.server().deps.db);
    const pending = await store.save({
      roomId: room.roomId,
      uploaderId: bo.userId,
      kind: 'image',
      mime: 'image/webp',
      bytes: null,
      size: 5000,
      thumb: Buffer.from('thumb'),
      width: 10,
      height: 10,
    });
    expect(await store.readable(room.roomId, pending.id, bo.userId, 'full')).toBe('preparing');
    expect(await store.readable(room.roomId, pending.id, bo.userId, 'thumb')).toMatchObject({ bytes: Buffer.from('thumb') });
    const before = await store.usage(bo.userId);
    await store.complete(pending.id, Buffer.from('the full picture'));
    expect(await store.readable(room.roomId, pending.id, bo.userId, 'full')).toMatchObject({ bytes: Buffer.from('the full picture') });
    expect(await store.usage(bo.userId)).toBe(before - 5000 + 'the full picture'.length + 'thumb'.length);
  });

  it('refuses a decompression bomb, an SVG, a polyglot, a huge side and what is not a picture, by its content', async () => {
    const { people, room } = await rig.gathering();
    const own = people[0];
    const notAPicture = { message: ATTACHMENT_ERR.notAPicture, code: 'not_an_image' };

    for (const [w, h] of [
      [8_000, 8_000],
      [60_000, 60_000],
    ] as const) {
      const res = await upload(own, room.roomId, bombPng(w, h), 'image/png');
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: IMAGE_TOO_LARGE_PIXELS, code: 'image_too_large' });
    }
    let res: Response;

    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
    );
    for (const type of ['image/png', 'image/jpeg']) {
      res = await upload(own, room.roomId, svg, type);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(notAPicture);
    }
    expect((await upload(own, room.roomId, svg, 'image/svg+xml')).status).toBe(400);

    // A GIF that is also a script (a classic polyglot) is refused; so is text called a JPEG.
    res = await upload(own, room.roomId, Buffer.from('GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=alert(document.cookie)//;'), 'image/jpeg');
    expect(await res.json()).toEqual(notAPicture);
    res = await upload(own, room.roomId, Buffer.from('just some words, not a photo'), 'image/jpeg');
    expect(await res.json()).toEqual(notAPicture);
    // A voice recording sent as a picture, and a picture sent as a PDF, are refused.
    expect((await upload(own, room.roomId, webmVoice(2), 'image/webp')).status).toBe(400);
    expect((await upload(own, room.roomId, await photo(), 'application/pdf')).status).toBe(400);

    // A real JPEG with HTML after it: only the pixels survive the re-encoding.
    const polyglot = Buffer.concat([await photo(), Buffer.from('<html><script>alert(1)</script></html>')]);
    res = await upload(own, room.roomId, polyglot);
    expect(res.status).toBe(201);
    const a = (await res.json()) as MessageAttachment;
    const kept = Buffer.from(await (await fetchFile(own, a.url)).arrayBuffer());
    expect(kept.includes('<script>')).toBe(false);
    expect((await sharp(kept).metadata()).format).toBe('webp');

    res = await upload(own, room.roomId, await photo(12_000, 40), 'image/jpeg');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: ATTACHMENT_ERR.pictureTooWide, code: 'image_too_large' });
  });

  it('serves a file to the room’s members only: not to outsiders, another room’s members or anyone signed out (IDOR)', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own, bo] = people;
    const a = (await (await upload(own, room.roomId, await photo())).json()) as MessageAttachment;
    // Before it is sent, it is the uploader’s alone.
    expect((await fetchFile(own, a.thumbUrl!)).status).toBe(200);
    expect((await fetchFile(bo, a.thumbUrl!)).status).toBe(404);
    expect((await rig.post(sockets[0], room.roomId, 'look', { attachment: a.id })).ok).toBe(true);
    expect((await fetchFile(bo, a.thumbUrl!)).status).toBe(200);

    const outsider = await rig.account('out');
    const other = await rig.createRoom(outsider);
    expect((await fetchFile(outsider, a.url)).status).toBe(403);
    expect((await fetchFile(outsider, a.url.replace(room.roomId, other.roomId))).status).toBe(404);
    expect((await fetchFile(null, a.url)).status).toBe(401);
    // A picture variant asked of a voice message's address (and back) is nothing.
    expect((await fetchFile(bo, a.url.replace('/full', '/audio'))).status).toBe(404);
    expect((await fetchFile(bo, a.url.replace('/full', '/../../x'))).status).toBeGreaterThanOrEqual(400);
    // Nor may an outsider upload to the room, or anyone to a room that does not exist.
    expect((await upload(outsider, room.roomId, await photo())).status).toBe(403);
    expect((await upload(null, room.roomId, await photo())).status).toBe(401);

    // Someone else’s upload cannot be sent as one’s own, and an upload goes in one message only.
    const mine = (await (await upload(own, room.roomId, await photo())).json()) as MessageAttachment;
    const stolen = await rig.post(sockets[1], room.roomId, '', { attachment: mine.id });
    expect(stolen).toMatchObject({ ok: false, code: 'unknown_attachment' });
    expect((await rig.post(sockets[0], room.roomId, '', { attachment: mine.id })).ok).toBe(true);
    expect(await rig.post(sockets[0], room.roomId, 'again', { attachment: mine.id })).toMatchObject({
      ok: false,
      code: 'unknown_attachment',
    });
    // An upload to another room cannot be posted here.
    await rig.join(own, other.roomId);
    const elsewhere = (await (await upload(own, other.roomId, await photo())).json()) as MessageAttachment;
    expect(await rig.post(sockets[0], room.roomId, '', { attachment: elsewhere.id })).toMatchObject({
      ok: false,
      code: 'unknown_attachment',
    });
  });

  it('deleting the message deletes the file for everyone; a reported one is kept as evidence for moderators', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own, bo] = people;
    const a = (await (await upload(own, room.roomId, await photo())).json()) as MessageAttachment;
    const sent = await rig.post(sockets[0], room.roomId, '', { attachment: a.id });
    if (!sent.ok) throw new Error(sent.message);
    const changed = next<RoomMessage>(sockets[1], wire.changed);
    await sockets[0].timeout(5000).emitWithAck(wire.delete, { roomId: room.roomId, id: sent.message.id });
    expect((await changed).attachment).toBeUndefined();
    expect((await fetchFile(bo, a.url)).status).toBe(404);
    const rows = await t.server().deps.db.execute(sql`select 1 from room_attachments where id = ${a.id}`);
    expect((rows as unknown as { rows: unknown[] }).rows).toHaveLength(0);

    // Reported, then deleted by its author: members lose it, the report keeps it.
    const b = (await (await upload(own, room.roomId, await photo())).json()) as MessageAttachment;
    const second = await rig.post(sockets[0], room.roomId, 'see this', { attachment: b.id });
    if (!second.ok) throw new Error(second.message);
    const report = await rig.call(bo, '/api/reports', {
      method: 'POST',
      json: {
        reportedUserId: own.userId,
        context: 'group',
        roomId: room.roomId,
        messageId: second.message.id,
        reason: 'nudity',
        block: false,
      },
    });
    expect(report.status).toBe(201);
    await sockets[0].timeout(5000).emitWithAck(wire.delete, { roomId: room.roomId, id: second.message.id });
    expect((await fetchFile(bo, b.url)).status).toBe(404);
    const { id: reportId } = (await report.json()) as { id: string };
    const held = await t.server().deps.db.execute(
      sql`select r.messages::text as messages, a.evidence_until > now() + interval '80 days' as kept
          from reports r, room_attachments a where r.id = ${reportId} and a.id = ${b.id}`,
    );
    const row = (held as unknown as { rows: Array<{ messages: string; kept: boolean }> }).rows[0];
    expect(row?.kept).toBe(true);
    expect(row?.messages).toContain(b.id);
    // A moderator sees it with the report; nobody else does.
    const moderator = await personWithAccount(t.server(), { role: 'moderator' });
    const evidence = await moderator.call(`/api/moderation/reports/${reportId}/attachments/${b.id}`);
    expect(evidence.status).toBe(200);
    expect(evidence.headers.get('content-type')).toBe('image/webp');
    expect((await rig.call(bo, `/api/moderation/reports/${reportId}/attachments/${b.id}`)).status).toBe(403);
    expect((await moderator.call(`/api/moderation/reports/${reportId}/attachments/${a.id}`)).status).toBe(404);
  });

  it('limits uploads a minute per person, and each person’s storage, with clear messages', async () => {
    const { people, room } = await rig.gathering();
    const [own, bo] = people;
    const small = await photo(40, 30);
    for (let i = 0; i < ATTACHMENTS_PER_USER_MINUTE; i++) expect((await upload(own, room.roomId, small)).status).toBe(201);
    const res = await upload(own, room.roomId, small);
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ message: ATTACHMENT_ERR.tooFast, code: 'rate_limited' });

    // Bo's earlier pictures and voice messages fill his allowance: the next one is refused, saying so.
    await t.server().deps.db.execute(sql`insert into room_attachments (id, room_id, uploader_id, kind, mime, bytes, size, client_id)
      values (gen_random_uuid(), ${room.roomId}, ${bo.userId}, 'image', 'image/webp', '\\x00'::bytea, ${ATTACHMENT_STORAGE_CAP_BYTES - 100}, 'old')`);
    const full = await upload(bo, room.roomId, small);
    expect(full.status).toBe(413);
    expect(await full.json()).toEqual({ message: ATTACHMENT_ERR.storageFull, code: 'storage_full' });

    // Uploads left unsent for a day go with the hourly sweep; sent ones stay.
    const db = t.server().deps.db;
    await db.execute(sql`insert into room_attachments (id, room_id, uploader_id, kind, mime, bytes, size, created_at)
      values (gen_random_uuid(), ${room.roomId}, ${own.userId}, 'image', 'image/webp', '\\x00'::bytea, 1, now() - interval '2 days')`);
    const count = async () =>
      Number(
        (
          (await db.execute(sql`select count(*)::int as n from room_attachments where room_id = ${room.roomId}`)) as unknown as {
            rows: Array<{ n: number }>;
          }
        ).rows[0]!.n,
      );
    const before = await count();
    await attachmentStore(db).deleteExpiredAndUnsent();
    expect(await count()).toBe(before - 1);
  });
});

describe('voice messages in a room', () => {
  it('keeps an Opus WebM under two minutes; refuses a longer one, another codec and a renamed file', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own, bo] = people;
    let res = await upload(own, room.roomId, webmVoice(4), 'audio/webm', 'voice');
    expect(res.status).toBe(201);
    const v = (await res.json()) as MessageAttachment;
    expect(v).toMatchObject({ kind: 'voice', durationMs: 4000 });
    expect((await rig.post(sockets[0], room.roomId, '', { attachment: v.id })).ok).toBe(true);
    const file = await fetchFile(bo, v.url);
    expect(file.headers.get('content-type')).toBe('audio/webm');
    expect(Buffer.from(await file.arrayBuffer()).equals(webmVoice(4))).toBe(true);

    res = await upload(own, room.roomId, webmVoice(150), 'audio/webm', 'voice');
    expect(await res.json()).toEqual({ message: ATTACHMENT_ERR.voiceTooLong, code: 'voice_too_long' });
    res = await upload(own, room.roomId, webmVoice(4, 'A_VORBIS'), 'audio/webm', 'voice');
    expect(await res.json()).toEqual({ message: ATTACHMENT_ERR.notVoice, code: 'not_voice' });
    res = await upload(own, room.roomId, await photo(), 'audio/webm', 'voice');
    expect(await res.json()).toEqual({ message: ATTACHMENT_ERR.notVoice, code: 'not_voice' });
    res = await upload(own, room.roomId, webmVoice(4), 'video/mp4', 'voice');
    expect(res.status).toBe(400);
  });
});

describe('where attachments may be sent', () => {
  it('a direct conversation between friends has them; a 1:1 chat with a stranger refuses them clearly until both allow them', async () => {
    const [ana, bo, cy] = await Promise.all([rig.account('ana'), rig.account('bo'), rig.account('cy')]);
    await rig.befriend(ana, bo);
    const { roomId } = (await (await rig.call(ana, `/api/direct/${bo.username}`, { method: 'POST' })).json()) as { roomId: string };
    const [sa, sb] = await Promise.all([rig.open(ana), rig.open(bo)]);
    await rig.watch(sa, roomId);
    await rig.watch(sb, roomId);
    const a = (await (await upload(ana, roomId, await photo())).json()) as MessageAttachment;
    const got = next<RoomMessage>(sb, wire.message);
    expect((await rig.post(sa, roomId, 'us', { attachment: a.id })).ok).toBe(true);
    expect((await got).attachment?.id).toBe(a.id);
    expect((await fetchFile(bo, a.url)).status).toBe(200);
    expect((await fetchFile(cy, a.url)).status).toBe(403);
    const b = (await (await upload(ana, roomId, await photo())).json()) as MessageAttachment;
    expect((await rig.post(sa, roomId, '', { attachment: b.id })).ok).toBe(true);
    const list = (await (await rig.call(bo, '/api/direct')).json()) as { conversations: Array<{ lastMessage: { text: string } }> };
    expect(list.conversations[0]?.lastMessage.text).toBe('📎');

    const stranger = await personWithAccount(t.server());
    const { ka, ra } = await t.pair(stranger.user, person(), { roomType: 'textChat' }, { roomType: 'textChat' });
    expect(await rig.watch(ka, ra.roomId)).toMatchObject({ ok: true });
    const res = await stranger.call(`/api/rooms/${ra.roomId}/attachments?kind=image`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg' },
      body: await photo(),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: ATTACHMENT_ERR.picturesNotAllowed, code: 'pictures_not_allowed' });
    expect(await rig.post(ka, ra.roomId, '', { attachment: a.id })).toMatchObject({ ok: false, code: 'pictures_not_allowed' });
  });

  it('a busy room takes at most so many uploads a minute from everyone together', async () => {
    const owner = await rig.account('own');
    const room = await rig.createRoom(owner);
    const members = [owner];
    for (let i = 0; i < 4; i++) {
      const m = await rig.account('m');
      await rig.join(m, room.roomId);
      members.push(m);
    }
    const small = await photo(20, 20);
    let refused: Response | undefined;
    for (let i = 0; i < ATTACHMENTS_PER_ROOM_MINUTE + 1 && !refused; i++) {
      const res = await upload(members[i % members.length]!, room.roomId, small);
      if (res.status !== 201) refused = res;
      else expect(i).toBeLessThan(ATTACHMENTS_PER_ROOM_MINUTE);
    }
    expect(refused?.status).toBe(429);
    expect(await refused?.json()).toEqual({ message: ATTACHMENT_ERR.roomTooFast, code: 'rate_limited' });
  });
});
