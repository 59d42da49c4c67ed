import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { chatEvents } from '@parley/contract/matchmaking';
import { roomEvents, type RoomMessage } from '@parley/contract/rooms';
import { SAFETY_ERR, SNAPSHOT_MAX_SIDE, type ModerationCase, type ReportBody } from '@parley/contract/safety';
import type { TokenUser } from '@parley/contract/auth';
import type { Socket } from 'socket.io-client';
import { personWithAccount as signedMember } from '../testing/members.ts';
import { reports } from '../db/schema.ts';
import { next, said, socketTestServer } from '../testing/socketClients.ts';

// Evidence of a 1:1 chat must be the server's word for what was said, in a room the reporter and
// the reported person really had: attempts to lend someone else's name to words or rooms fail.
const t = socketTestServer();

const member = (role: 'user' | 'moderator' = 'user') => signedMember(t.server(), { role });
type Member = Awaited<ReturnType<typeof member>>;

/** `from` says `text` in the chat under the client id `clientId`: the message as kept, and as the other page got it. */
async function say(from: Socket, to: Socket, roomId: string, clientId: string, text: string) {
  const arriving = next<RoomMessage>(to, roomEvents.message, (m) => m.clientId === clientId);
  const sent = await said(from, roomId, text, clientId);
  return { sent, got: await arriving };
}

/** The message as a reporter's page attaches it: the server's id (as text), text, time and receipt. */
const evidenceOf = (m: RoomMessage, from: 'me' | 'them' = 'them') => ({
  id: String(m.id),
  from,
  text: m.text,
  sentAt: m.sentAt,
  receipt: m.receipt!,
});

async function chat(a: Member, b: Member, roomType: 'textChat' | 'videoChat' = 'textChat') {
  const { ka, kb, roomId } = await t.chatting(a.user, b.user, roomType);
  return { ka, kb, roomId };
}

const file = (who: Member, body: ReportBody) => who.call('/api/reports', { method: 'POST', json: body });
const caseOf = async (mod: Member, user: TokenUser) =>
  (await (await mod.call(`/api/moderation/users/${user.userId}`)).json()) as ModerationCase;
const reportsAbout = (user: TokenUser) => t.server().deps.db.select().from(reports).where(eq(reports.reportedId, user.userId));

describe('forged evidence', () => {
  it('a crafted client id cannot make a receipt vouch for a victim’s words in a made-up room, nor for a partner’s', async () => {
    const attacker = await member();
    const partner = await member();
    const victim = await member();
    const { ka, kb, roomId } = await chat(attacker, partner);
    const text = 'I know where you live';

    // A client id shaped like the fields of a "\n"-joined receipt (room, sender, id): the server
    // keeps it only to recognise a resend, and signs its own id for the message.
    const crafted = await say(ka, kb, roomId, `x\n${victim.user.userId}\n1`, text);
    // A well-formed message too: its real receipt is tried with the forged room and sender.
    const plain = await say(ka, kb, roomId, 'x', text);

    const forgedRoom = `${roomId}\n${attacker.user.userId}\nx`;
    const asVictims = (room: string, m: RoomMessage): ReportBody => ({
      reportedUserId: victim.user.userId,
      context: 'textChat',
      roomId: room,
      reason: 'harassment',
      messages: [evidenceOf(m)],
    });
    // Made-up rooms, and the attacker's real room with the victim named as the sender.
    for (const body of [asVictims(forgedRoom, crafted.sent), asVictims(forgedRoom, plain.sent), asVictims(roomId, plain.sent)]) {
      const res = await file(attacker, body);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(SAFETY_ERR.notYourChat);
    }
    // The real room and the real partner, but the attacker's own words put in the partner's mouth.
    const inPartnersMouth = await file(attacker, {
      reportedUserId: partner.user.userId,
      context: 'textChat',
      roomId,
      reason: 'harassment',
      block: false,
      messages: [evidenceOf(plain.sent)],
    });
    expect(inPartnersMouth.status).toBe(400);
    expect(((await inPartnersMouth.json()) as { message: string }).message).toBe(SAFETY_ERR.forgedEvidence);

    // Nothing reaches the moderators as the victim's or the partner's words.
    expect(await reportsAbout(victim.user)).toHaveLength(0);
    expect(await reportsAbout(partner.user)).toHaveLength(0);
    const mod = await member('moderator');
    expect((await caseOf(mod, victim.user)).reports).toEqual([]);
    // The server never takes a client's string as a message's id: its ids are its own, rising by one in the room.
    expect([crafted.got.id, plain.got.id]).toEqual([1, 2]);
    expect(crafted.got).toEqual(crafted.sent);
  });

  it('a report’s room must be one the reporter and the reported person had, of the same kind', async () => {
    const a = await member();
    const b = await member();
    const stranger = await member();
    const { ka, roomId } = await chat(a, b);
    // The chat has just ended: it counts at once.
    ka.emit(chatEvents.stop);
    const base = { reason: 'harassment', block: false } as const;
    const refused: ReportBody[] = [
      { ...base, reportedUserId: stranger.user.userId, context: 'textChat', roomId },
      { ...base, reportedUserId: b.user.userId, context: 'textChat', roomId: 'a-room-they-never-had' },
      { ...base, reportedUserId: b.user.userId, context: 'videoChat', roomId },
    ];
    for (const body of refused) {
      const res = await file(a, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(SAFETY_ERR.notYourChat);
    }
    const noRoom = await file(a, { ...base, reportedUserId: b.user.userId, context: 'textChat' });
    expect(noRoom.status).toBe(400);
    expect(((await noRoom.json()) as { message: string }).message).toBe(SAFETY_ERR.roomNeeded);
    expect(await reportsAbout(stranger.user)).toHaveLength(0);

    // The room they had, by either of them.
    expect((await file(a, { ...base, reportedUserId: b.user.userId, context: 'textChat', roomId })).status).toBe(201);
    expect((await file(b, { ...base, reportedUserId: a.user.userId, context: 'textChat', roomId })).status).toBe(201);
  });

  it('a receipt of the old "\\n"-joined kind is refused', async () => {
    const a = await member();
    const b = await member();
    const { ka, kb, roomId } = await chat(a, b);
    const { got: m } = await say(ka, kb, roomId, 'm1', 'you are awful');
    // Made as the server made receipts before, with the server's own secret.
    const v1Key = createHmac('sha256', t.server().deps.secrets.jwtSecret).update('parley message receipts v1').digest();
    const v1 = createHmac('sha256', v1Key)
      .update(`${roomId}\n${a.user.userId}\n${m.id}\n${m.sentAt}\n${m.text}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
    const body = (receipt: string): ReportBody => ({
      reportedUserId: a.user.userId,
      context: 'textChat',
      roomId,
      reason: 'harassment',
      messages: [{ ...evidenceOf(m), receipt }],
    });
    const old = await file(b, body(v1));
    expect(old.status).toBe(400);
    expect(((await old.json()) as { message: string }).message).toBe(SAFETY_ERR.forgedEvidence);
    expect(await reportsAbout(a.user)).toHaveLength(0);
    // The receipt the server gave is accepted.
    expect((await file(b, body(m.receipt!))).status).toBe(201);
  });
});

describe('a video report’s snapshot', () => {
  const jpegOf = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#aa3355' } })
      .jpeg()
      .toBuffer();
  const put = (who: Member, reportId: string, body: Buffer) =>
    who.call(`/api/reports/${reportId}/snapshot`, { method: 'PUT', body, headers: { 'content-type': 'image/jpeg' } });
  const refusal = async (res: Response) => ({ status: res.status, message: ((await res.json()) as { message: string }).message });

  async function reported(roomType: 'textChat' | 'videoChat') {
    const a = await member();
    const b = await member();
    const { roomId } = await chat(a, b, roomType);
    const res = await file(b, { reportedUserId: a.user.userId, context: roomType, roomId, reason: 'nudity', block: false });
    expect(res.status).toBe(201);
    return { a, b, roomId, id: ((await res.json()) as { id: string }).id };
  }
  const stored = async (id: string) => (await t.server().deps.db.select().from(reports).where(eq(reports.id, id)))[0]!.snapshot;

  it('is refused for a report of a text chat, or of a video room the two never had', async () => {
    const text = await reported('textChat');
    expect(await refusal(await put(text.b, text.id, await jpegOf(64, 48)))).toEqual({ status: 403, message: SAFETY_ERR.snapshotNotVideo });
    expect(await stored(text.id)).toBeNull();

    // A report written before rooms were checked, naming a video room its two people never had.
    const a = await member();
    const b = await member();
    const [row] = await t
      .server()
      .deps.db.insert(reports)
      .values({ reporterId: b.user.userId, reportedId: a.user.userId, context: 'videoChat', roomId: 'made-up', reason: 'nudity', note: '' })
      .returning({ id: reports.id });
    expect(await refusal(await put(b, row!.id, await jpegOf(64, 48)))).toEqual({ status: 403, message: SAFETY_ERR.snapshotNotVideo });
    expect(await stored(row!.id)).toBeNull();
  });

  it('is refused unless it decodes as a JPEG of sensible size', async () => {
    const { b, id } = await reported('videoChat');
    const magicOnly = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      Buffer.from('<script>alert(1)</script>'),
      Buffer.alloc(200, 7),
    ]);
    expect(await refusal(await put(b, id, magicOnly))).toEqual({ status: 400, message: SAFETY_ERR.snapshotNotJpeg });
    const whole = await jpegOf(64, 48);
    const truncated = whole.subarray(0, Math.floor(whole.length / 2));
    expect(await refusal(await put(b, id, truncated))).toEqual({ status: 400, message: SAFETY_ERR.snapshotNotJpeg });
    expect(await refusal(await put(b, id, await jpegOf(SNAPSHOT_MAX_SIDE + 1, 8)))).toEqual({
      status: 400,
      message: SAFETY_ERR.snapshotTooManyPixels,
    });
    expect(await stored(id)).toBeNull();
    // Refusals do not use up the one snapshot a report may have.
    expect((await put(b, id, whole)).status).toBe(204);
  });

  it('is stored re-encoded by the server, without its EXIF, and only once', async () => {
    const { b, id } = await reported('videoChat');
    const withExif = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#2255aa' } })
      .withExif({ IFD0: { ImageDescription: 'home-address-51.5N-0.12W', Artist: 'reporter-device' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    expect((await put(b, id, withExif)).status).toBe(204);
    const kept = (await stored(id))!;
    const meta = await sharp(kept).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 80, height: 60 });
    expect(meta.exif).toBeUndefined();
    expect(kept.includes('home-address')).toBe(false);
    expect(kept.includes('reporter-device')).toBe(false);
    // Once only.
    expect(await refusal(await put(b, id, await jpegOf(64, 48)))).toEqual({ status: 403, message: SAFETY_ERR.snapshotLate });
  });
});
