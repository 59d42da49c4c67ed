import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { roomEvents, type RoomMessage } from '@parley/contract/rooms';
import { SAFETY_ERR, safetyEvents, type ModerationCase, type QueueEntry, type ReportBody } from '@parley/contract/safety';
import { personWithAccount as signedMember } from '../testing/members.ts';
import { reports, userBlocks, users } from '../db/schema.ts';
import { next, said, socketTestServer } from '../testing/socketClients.ts';
import type { TokenUser } from '@parley/contract/auth';

const t = socketTestServer();

const member = (over: Partial<TokenUser> = {}, role: 'user' | 'moderator' = 'user') => signedMember(t.server(), { over, role });

/** A message as a reporter's page attaches it: the server's id for it (as text), its text and time, its receipt. */
type Held = { id: string; text: string; sentAt: number; receipt: string };

/** Two people in a chat (text unless told); `a` says something to `b`, which both hold with the server's receipt. */
async function chatted(roomType: 'textChat' | 'videoChat' = 'textChat') {
  const a = await member();
  const b = await member();
  const { ka, kb, roomId } = await t.chatting(a.user, b.user, roomType);
  const received = next<RoomMessage>(kb, roomEvents.message);
  const sent = await said(ka, roomId, 'you are awful');
  const m = await received;
  expect(sent.receipt).toBeTruthy();
  expect(m).toEqual(sent);
  const got: Held = { id: String(m.id), text: m.text, sentAt: m.sentAt, receipt: m.receipt! };
  return { a, b, ka, kb, roomId, got };
}

const reportOf = (roomId: string, reported: string, got: Held, over: Partial<ReportBody> = {}): ReportBody => ({
  reportedUserId: reported,
  context: 'textChat',
  roomId,
  reason: 'harassment',
  note: 'insults',
  messages: [{ id: got.id, from: 'them', text: got.text, sentAt: got.sentAt, receipt: got.receipt! }],
  ...over,
});

describe('reports with evidence', () => {
  it('reach the moderators’ queue with the messages the server relayed, at once, and block by default', async () => {
    const { a, b, roomId, got } = await chatted();
    const mod = await member({}, 'moderator');
    const modSocket = await t.open(mod.user);
    expect(await modSocket.timeout(2000).emitWithAck('moderation:watch', {})).toEqual({ ok: true });
    const told = next(modSocket, safetyEvents.queueChanged);

    const res = await b.call('/api/reports', { method: 'POST', json: reportOf(roomId, a.user.userId, got) });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ blocked: true, messages: 1 });
    expect(await told).toEqual({ kind: 'report', userId: a.user.userId });

    const queue = (await (await mod.call('/api/moderation/queue')).json()) as QueueEntry[];
    expect(queue.find((e) => e.user.userId === a.user.userId)).toMatchObject({ openReports: 1, reporters: 1, reasons: ['harassment'] });
    const c = (await (await mod.call(`/api/moderation/users/${a.user.userId}`)).json()) as ModerationCase;
    expect(c.reports[0]).toMatchObject({ reason: 'harassment', note: 'insults', messages: [{ from: 'reported', text: 'you are awful' }] });
    const blocks = await t
      .server()
      .deps.db.select()
      .from(userBlocks)
      .where(and(eq(userBlocks.blockerId, b.user.userId), eq(userBlocks.blockedId, a.user.userId)));
    expect(blocks).toHaveLength(1);
  });

  it('refuse evidence the server never relayed, or relayed otherwise', async () => {
    const { a, b, roomId, got } = await chatted();
    const forged = [
      reportOf(roomId, a.user.userId, { ...got, text: 'something much worse' }),
      reportOf(roomId, a.user.userId, { ...got, id: 'never-sent' }),
      reportOf(roomId, a.user.userId, got, {
        messages: [{ id: got.id, from: 'me', text: got.text, sentAt: got.sentAt, receipt: got.receipt! }],
      }),
      reportOf(roomId, a.user.userId, got, { context: 'profile' }),
    ];
    for (const body of forged) {
      const res = await b.call('/api/reports', { method: 'POST', json: body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(SAFETY_ERR.forgedEvidence);
    }
    // A room the two never had (or had as another kind of chat) is refused before any message is looked at.
    for (const body of [reportOf('another-room', a.user.userId, got), reportOf(roomId, a.user.userId, got, { context: 'videoChat' })]) {
      const res = await b.call('/api/reports', { method: 'POST', json: body });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(SAFETY_ERR.notYourChat);
    }
    expect(await t.server().deps.db.select().from(reports).where(eq(reports.reportedId, a.user.userId))).toHaveLength(0);
  });

  it('validate everything, and keep the block off when the reporter unticks it', async () => {
    const { a, b, roomId, got } = await chatted();
    for (const body of [
      {},
      { ...reportOf(roomId, a.user.userId, got), reason: 'ugly' },
      { ...reportOf(roomId, a.user.userId, got), extra: 1 },
    ]) {
      expect((await b.call('/api/reports', { method: 'POST', json: body })).status).toBe(400);
    }
    expect((await b.call('/api/reports', { method: 'POST', json: reportOf(roomId, b.user.userId, got, { messages: [] }) })).status).toBe(
      400,
    );
    expect((await t.server().api('/api/reports', { method: 'POST', json: reportOf(roomId, a.user.userId, got) })).status).toBe(401);
    const res = await b.call('/api/reports', { method: 'POST', json: reportOf(roomId, a.user.userId, got, { block: false }) });
    expect(await res.json()).toMatchObject({ blocked: false });
    expect(await t.server().deps.db.select().from(userBlocks).where(eq(userBlocks.blockerId, b.user.userId))).toHaveLength(0);
  });

  it('take a JPEG snapshot from the reporter only, shown to moderators only', async () => {
    const { a, b, roomId, got } = await chatted('videoChat');
    const { id } = (await (
      await b.call('/api/reports', { method: 'POST', json: reportOf(roomId, a.user.userId, got, { context: 'videoChat' }) })
    ).json()) as { id: string };
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    const put = (who: typeof a, body: Buffer, type = 'image/jpeg') =>
      who.call(`/api/reports/${id}/snapshot`, { method: 'PUT', body, headers: { 'content-type': type } });
    expect((await put(a, jpeg)).status).toBe(403);
    expect((await put(b, Buffer.from('not a jpeg'))).status).toBe(400);
    expect((await put(b, jpeg, 'image/png')).status).toBe(415);
    expect((await put(b, Buffer.concat([jpeg, Buffer.alloc(300 * 1024)]))).status).toBe(413);
    expect((await put(b, jpeg)).status).toBe(204);
    expect((await put(b, jpeg)).status).toBe(403);
    expect((await b.call(`/api/moderation/reports/${id}/snapshot`)).status).toBe(403);
    const mod = await member({}, 'moderator');
    const shown = await mod.call(`/api/moderation/reports/${id}/snapshot`);
    expect(shown.headers.get('content-type')).toBe('image/jpeg');
    // The server's own encoding of the same picture.
    expect(await sharp(Buffer.from(await shown.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
  });

  it('keep their evidence 90 days, then delete it', async () => {
    const { a, b, roomId, got } = await chatted();
    await b.call('/api/reports', { method: 'POST', json: reportOf(roomId, a.user.userId, got) });
    const { reportDesk } = await import('./reports.ts');
    const desk = reportDesk({
      db: t.server().deps.db,
      receipts: { verify: () => false },
      metIn: async () => false,
      blocked: () => undefined,
      queueChanged: () => undefined,
      rooms: {},
      met: async () => null,
    });
    await desk.deleteOldEvidence(new Date(Date.now() + 89 * 86_400_000));
    const [kept] = await t.server().deps.db.select().from(reports).where(eq(reports.reportedId, a.user.userId));
    expect(kept!.messages).not.toBeNull();
    await desk.deleteOldEvidence(new Date(Date.now() + 91 * 86_400_000));
    const [gone] = await t.server().deps.db.select().from(reports).where(eq(reports.reportedId, a.user.userId));
    expect(gone!.messages).toBeNull();
  });
});

describe('the moderators’ tool is for moderators only', () => {
  it('lets one account ask to watch the queue a few times, over all its sockets, then refuses for a while', async () => {
    const mod = await member({}, 'moderator');
    const [one, two] = [await t.open(mod.user), await t.open(mod.user)];
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await (i % 2 ? two : one).timeout(2000).emitWithAck('moderation:watch', {}));
    expect(answers).toEqual([...Array(5).fill({ ok: true }), { ok: false }]);
    // Another moderator has their own allowance.
    const other = await member({}, 'moderator');
    expect(await (await t.open(other.user)).timeout(2000).emitWithAck('moderation:watch', {})).toEqual({ ok: true });
  });

  it('answers 403 to everyone else on every route', async () => {
    const someone = await member();
    const id = randomUUID();
    for (const [path, method] of [
      ['/api/moderation/queue', 'GET'],
      [`/api/moderation/users/${id}`, 'GET'],
      [`/api/moderation/reports/${id}/snapshot`, 'GET'],
      ['/api/moderation/decisions', 'POST'],
      ['/api/moderation/appeals', 'GET'],
      [`/api/moderation/appeals/${id}`, 'POST'],
      ['/api/moderation/support', 'GET'],
      [`/api/moderation/support/${id}/handled`, 'POST'],
      ['/api/moderation/roles', 'POST'],
    ] as const) {
      expect((await someone.call(path, { method, json: method === 'POST' ? {} : undefined })).status, path).toBe(403);
    }
    const sock = await t.open(someone.user);
    expect(await sock.timeout(2000).emitWithAck('moderation:watch', {})).toEqual({ ok: false });
    // A moderator may not make moderators; only an admin may.
    const mod = await member({}, 'moderator');
    expect(
      (await mod.call('/api/moderation/roles', { method: 'POST', json: { username: someone.user.username, role: 'moderator' } })).status,
    ).toBe(403);
    await t.server().deps.db.update(users).set({ role: 'admin' }).where(eq(users.id, mod.user.userId));
    expect(
      (await mod.call('/api/moderation/roles', { method: 'POST', json: { username: someone.user.username, role: 'moderator' } })).status,
    ).toBe(204);
    // A new moderator works once their two-factor sign-in is on.
    const refused = await someone.call('/api/moderation/queue');
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([403, 'two_factor_required']);
    await t.server().deps.db.update(users).set({ twoFactorAt: new Date() }).where(eq(users.id, someone.user.userId));
    expect((await someone.call('/api/moderation/queue')).status).toBe(200);
  });
});
