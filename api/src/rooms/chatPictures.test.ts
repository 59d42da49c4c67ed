import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { ATTACHMENT_ERR, CHAT_PICTURES_GRACE_MS, type MessageAttachment } from '@parley/contract/attachments';
import { chatEvents } from '@parley/contract/matchmaking';
import { roomEvents, type JoinAnswer, type PicturesAllowed, type PostAnswer, type RoomMessage } from '@parley/contract/rooms';
import { UI_LOCALES } from '@parley/contract/locales';
import { next, socketTestServer } from '../testing/socketClients.ts';
import { personWithAccount } from '../testing/members.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';
import { errorIn } from '../platform/i18n/errors.ts';
import { chatPictureStore } from './chatPictures.ts';

// Pictures in a 1:1 chat with a stranger: only while both allow them, only for the two of them, only while the chat lasts.
const t = socketTestServer();
const rig = storedRoomRig(t.server, (u) => t.open(u));

const photo = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .withExif({ IFD0: { ImageDescription: 'Home, 51.5 N' } })
    .jpeg()
    .toBuffer();

type Who = { user: { userId: string }; call(path: string, init?: RequestInit & { json?: unknown }): Promise<Response> };
const upload = async (who: Who, roomId: string, kind = 'image') =>
  who.call(`/api/rooms/${roomId}/attachments?kind=${kind}`, {
    method: 'POST',
    headers: { 'content-type': 'image/jpeg' },
    body: await photo(),
  });
const uploaded = async (who: Who, roomId: string) => {
  const res = await upload(who, roomId);
  if (res.status !== 201) throw new Error(`upload refused: ${res.status} ${await res.text()}`);
  return (await res.json()) as MessageAttachment;
};
const join = (s: Socket, roomId: string) => s.timeout(10_000).emitWithAck(roomEvents.join, { roomId }) as Promise<JoinAnswer>;
const allow = (s: Socket, roomId: string, on = true) =>
  s.timeout(10_000).emitWithAck(roomEvents.pictures, { roomId, allow: on }) as Promise<{ ok: boolean; message?: string; code?: string }>;
const post = (s: Socket, roomId: string, attachment: string, clientId = randomUUID()) =>
  s.timeout(10_000).emitWithAck(roomEvents.post, { roomId, clientId, text: '', attachment }) as Promise<PostAnswer>;
const rows = async (id: string) =>
  (
    (await t.server().deps.db.execute(sql`select delete_after, evidence_until from chat_pictures where id = ${id}`)) as unknown as {
      rows: Array<{ delete_after: Date | null; evidence_until: Date | null }>;
    }
  ).rows;
const eventually = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('never happened');
};
const notAllowed = { ok: false, message: ATTACHMENT_ERR.picturesNotAllowed, code: 'pictures_not_allowed' };

async function chatting(roomType: 'textChat' | 'videoChat' = 'textChat') {
  const a = await personWithAccount(t.server());
  const b = await personWithAccount(t.server());
  const { ka, kb, ra } = await t.pair(a.user, b.user, { roomType }, { roomType });
  const roomId = ra.roomId;
  expect(await join(ka, roomId)).toMatchObject({ ok: true, picturesAllowedBy: [] });
  expect(await join(kb, roomId)).toMatchObject({ ok: true, picturesAllowedBy: [] });
  return { a, b, ka, kb, roomId };
}

/** Both allow pictures in the chat; each page hears who allows them. */
async function bothAllow(ka: Socket, kb: Socket, roomId: string) {
  const heard = next<PicturesAllowed>(kb, roomEvents.picturesAllowed, (p) => p.allowedBy.length === 2);
  expect(await allow(ka, roomId)).toEqual({ ok: true });
  expect(await allow(kb, roomId)).toEqual({ ok: true });
  return heard;
}

describe('pictures in a 1:1 chat', () => {
  it('words its refusal in every language of the server catalog', () => {
    for (const locale of UI_LOCALES.filter((l) => l !== 'en'))
      expect(errorIn(locale, ATTACHMENT_ERR.picturesNotAllowed), locale).not.toBe(ATTACHMENT_ERR.picturesNotAllowed);
  });

  it('are refused until both allow them, then reach the partner re-encoded; the partner hears who allows them', async () => {
    const { a, b, ka, kb, roomId } = await chatting();
    expect((await upload(a, roomId)).status).toBe(403);
    const heardA = next<PicturesAllowed>(kb, roomEvents.picturesAllowed);
    expect(await allow(ka, roomId)).toEqual({ ok: true });
    expect(await heardA).toEqual({ roomId, allowedBy: [a.user.userId] });
    // One side alone: still refused, with the reason.
    const one = await upload(a, roomId);
    expect(one.status).toBe(403);
    expect(await one.json()).toMatchObject({ message: ATTACHMENT_ERR.picturesNotAllowed });
    expect((await bothAllow(ka, kb, roomId)).allowedBy.sort()).toEqual([a.user.userId, b.user.userId].sort());

    const pic = await uploaded(a, roomId);
    expect(pic).toMatchObject({ kind: 'image', width: 64, height: 48 });
    const got = next<RoomMessage>(kb, roomEvents.message);
    const sent = await post(ka, roomId, pic.id);
    expect(sent).toMatchObject({ ok: true, message: { attachment: pic } });
    expect((await got).attachment).toEqual(pic);
    const file = await b.call(pic.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/webp');
    expect(file.headers.get('cache-control')).toBe('private, no-store');
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.includes('51.5 N')).toBe(false);
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect((await b.call(pic.thumbUrl!)).status).toBe(200);
    // A voice message is not a picture: 1:1 chats take none.
    expect((await upload(a, roomId, 'voice')).status).toBe(403);
  });

  it('go the same way in the text beside a video chat (the same kind of chat)', async () => {
    const { a, b, ka, kb, roomId } = await chatting('videoChat');
    expect((await upload(a, roomId)).status).toBe(403);
    await bothAllow(ka, kb, roomId);
    const pic = await uploaded(a, roomId);
    expect(await post(ka, roomId, pic.id)).toMatchObject({ ok: true, message: { attachment: pic } });
    expect((await b.call(pic.thumbUrl!)).status).toBe(200);
  });

  it('are refused once either side stops allowing them, even an upload made before', async () => {
    const { a, ka, kb, roomId } = await chatting();
    await bothAllow(ka, kb, roomId);
    const before = await uploaded(a, roomId);
    const heard = next<PicturesAllowed>(ka, roomEvents.picturesAllowed);
    expect(await allow(kb, roomId, false)).toEqual({ ok: true });
    expect((await heard).allowedBy).toEqual([a.user.userId]);
    expect(await post(ka, roomId, before.id)).toEqual(notAllowed);
    expect((await upload(a, roomId)).status).toBe(403);
  });

  it('nobody else uploads, reads or replays: a stranger, a member of another chat, a direct message’s picture', async () => {
    const { a, b, ka, kb, roomId } = await chatting();
    await bothAllow(ka, kb, roomId);
    const pic = await uploaded(a, roomId);
    expect((await post(ka, roomId, pic.id)).ok).toBe(true);

    // Another chat, whose two both allow pictures too.
    const other = await chatting();
    await bothAllow(other.ka, other.kb, other.roomId);
    const theirs = await uploaded(other.a, other.roomId);
    // Its member cannot upload here, read this chat's picture, nor send their own picture into this chat.
    expect((await upload(other.a, roomId)).status).toBe(403);
    expect((await other.a.call(pic.url)).status).toBe(403);
    expect((await other.a.call(pic.url.replace(roomId, other.roomId))).status).toBe(404);
    expect(await post(other.ka, roomId, theirs.id)).toMatchObject({ ok: false, code: 'not_in_room' });
    // A member of this chat cannot claim the other chat's picture (its id under this room).
    expect(await post(ka, roomId, theirs.id)).toMatchObject({ ok: false, message: ATTACHMENT_ERR.notYours });
    // A picture of the partner's cannot be sent as one's own.
    expect(await post(kb, roomId, pic.id)).toMatchObject({ ok: false, message: ATTACHMENT_ERR.notYours });
    // The uploader's picture not yet sent is theirs alone.
    const unsent = await uploaded(a, roomId);
    expect((await b.call(unsent.url)).status).toBe(404);
    expect((await a.call(unsent.url)).status).toBe(200);

    // A direct message's upload does not pass for a chat picture, nor the other way round.
    const [own, friend] = [await rig.account('dm'), await rig.account('dm')];
    await rig.befriend(own, friend);
    const opened = await rig.call(own, `/api/direct/${friend.username}`, { method: 'POST' });
    expect(opened.status).toBeLessThan(300);
    const { roomId: dmId } = (await opened.json()) as { roomId: string };
    const dmUpload = await t.server().api(`/api/rooms/${dmId}/attachments?kind=image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${own.token}`, 'content-type': 'image/jpeg' },
      body: await photo(),
    });
    expect(dmUpload.status).toBe(201);
    const dmPic = (await dmUpload.json()) as MessageAttachment;
    expect(await post(ka, roomId, dmPic.id)).toMatchObject({ ok: false, message: ATTACHMENT_ERR.notYours });
    const ownSocket = await t.open(own);
    await rig.watch(ownSocket, dmId);
    expect(await rig.post(ownSocket, dmId, '', { attachment: pic.id })).toMatchObject({ ok: false, message: ATTACHMENT_ERR.notYours });
  });

  it('a picture whose message its sender deletes is gone for both at once', async () => {
    const { a, b, ka, kb, roomId } = await chatting();
    await bothAllow(ka, kb, roomId);
    const pic = await uploaded(a, roomId);
    const sent = await post(ka, roomId, pic.id);
    if (!sent.ok) throw new Error(sent.message);
    const changed = next<RoomMessage>(kb, roomEvents.changed);
    expect(await ka.timeout(10_000).emitWithAck(roomEvents.delete, { roomId, id: sent.message.id })).toEqual({ ok: true });
    expect((await changed).attachment).toBeUndefined();
    expect((await b.call(pic.url)).status).toBe(404);
    expect(await rows(pic.id)).toEqual([]);
  });

  it('a chat that ended refuses uploads and reads, and its pictures go after the grace', async () => {
    const { a, b, ka, kb, roomId } = await chatting();
    await bothAllow(ka, kb, roomId);
    const pic = await uploaded(a, roomId);
    expect((await post(ka, roomId, pic.id)).ok).toBe(true);

    const left = next(kb, chatEvents.partnerLeft);
    ka.emit(chatEvents.stop);
    await left;
    expect((await upload(a, roomId)).status).toBe(404);
    expect((await b.call(pic.url)).status).not.toBe(200);
    await eventually(async () => (await rows(pic.id))[0]?.delete_after != null);
    // Past the grace nothing keeps it: the sweep deletes the row.
    const store = chatPictureStore(t.server().deps.db);
    expect(await store.sweep(Date.now() + CHAT_PICTURES_GRACE_MS + 1000)).toBeGreaterThanOrEqual(1);
    expect(await rows(pic.id)).toEqual([]);
  });

  it('a report keeps the reported chat’s picture as evidence for moderators, past the chat and its grace', async () => {
    const { a, b, ka, kb, roomId } = await chatting();
    await bothAllow(ka, kb, roomId);
    const pic = await uploaded(b, roomId);
    const sent = await post(kb, roomId, pic.id);
    if (!sent.ok) throw new Error(sent.message);
    const m = sent.message;
    const evidence = { id: String(m.id), from: 'them' as const, text: m.text, sentAt: m.sentAt, receipt: m.receipt!, attachmentId: pic.id };
    const file = (messages: Array<typeof evidence>) =>
      a.call('/api/reports', {
        method: 'POST',
        json: { reportedUserId: b.user.userId, context: 'textChat', roomId, reason: 'nudity', block: false, messages },
      });
    // The receipt names the picture: another picture id under it is forged.
    expect((await file([{ ...evidence, attachmentId: randomUUID() }])).status).toBe(400);
    const res = await file([evidence]);
    expect(res.status).toBe(201);
    const { id: reportId } = (await res.json()) as { id: string };
    await eventually(async () => (await rows(pic.id))[0]?.delete_after != null);
    expect(await chatPictureStore(t.server().deps.db).sweep(Date.now() + CHAT_PICTURES_GRACE_MS + 1000)).toBe(0);
    expect((await rows(pic.id))[0]?.evidence_until).toBeTruthy();
    const moderator = await personWithAccount(t.server(), { role: 'moderator' });
    const seen = await moderator.call(`/api/moderation/reports/${reportId}/attachments/${pic.id}`);
    expect(seen.status).toBe(200);
    expect(seen.headers.get('content-type')).toBe('image/webp');
    expect((await b.call(`/api/moderation/reports/${reportId}/attachments/${pic.id}`)).status).toBe(403);
  });
});
