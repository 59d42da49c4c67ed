import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SAFETY_ERR, type ModerationCase } from '@parley/contract/safety';
import type { OpenDirectAnswer } from '@parley/contract/direct';
import { reports, userBlocks } from '../db/schema.ts';
import { socketTestServer } from '../testing/socketClients.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';

const t = socketTestServer();
const rig = storedRoomRig(t.server, (u) => t.open(u));

/** A moderator account with its token. */
async function moderator() {
  const mod = await rig.account('mod');
  const { users } = await import('../db/schema.ts');
  await t.server().deps.db.update(users).set({ role: 'moderator', twoFactorAt: new Date() }).where(eq(users.id, mod.userId));
  return mod;
}
const report = (who: { token: string }, json: Record<string, unknown>) => rig.call(who, '/api/reports', { method: 'POST', json });
const caseOf = async (userId: string) =>
  (await (await rig.call(await moderator(), `/api/moderation/users/${userId}`)).json()) as ModerationCase;

/** A group room where the owner, Bo and Cy talk; Bo (people[1]) says something ugly among ordinary lines. */
async function groupTalk() {
  const g = await rig.gathering();
  const [own, bo, cy] = g.people;
  await rig.seed(g.room.roomId, own.userId, ['hello all']);
  await rig.seed(g.room.roomId, cy.userId, ['hi']);
  await rig.seed(g.room.roomId, bo.userId, ['you are all idiots']);
  await rig.seed(g.room.roomId, cy.userId, ['calm down']);
  const page = (await (await rig.call(cy, `/api/rooms/${g.room.roomId}/messages`)).json()) as {
    messages: Array<{ id: number; text: string }>;
  };
  const ugly = page.messages.find((m) => m.text === 'you are all idiots')!;
  return { ...g, own, bo, cy, ugly, ids: page.messages.map((m) => m.id) };
}

describe('reports from a group room', () => {
  it('a message reported by id reaches the queue with the messages around it, read from the server’s copy; the reporter blocks its author', async () => {
    const { room, bo, cy, ugly, ids } = await groupTalk();
    const res = await report(cy, {
      reportedUserId: bo.userId,
      context: 'group',
      roomId: room.roomId,
      reason: 'harassment',
      messageId: ugly.id,
      messageIds: ids,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ blocked: true, messages: 4 });
    const c = await caseOf(bo.userId);
    const [r] = c.reports;
    expect(r).toMatchObject({ context: 'group', reason: 'harassment', reporter: { userId: cy.userId } });
    expect(r!.messages!.map((m) => [m.from, m.text])).toEqual([
      ['other', 'hello all'],
      ['reporter', 'hi'],
      ['reported', 'you are all idiots'],
      ['reporter', 'calm down'],
    ]);
    expect(r!.messages!.filter((m) => m.reported).map((m) => m.text)).toEqual(['you are all idiots']);
    expect(r!.messages![2]!.sender).toBe(bo.username);
    const blocks = await t.server().deps.db.select().from(userBlocks).where(eq(userBlocks.blockerId, cy.userId));
    expect(blocks.map((b) => b.blockedId)).toEqual([bo.userId]);
  });

  it('without ids the server takes the messages around the reported one', async () => {
    const { room, bo, cy, ugly } = await groupTalk();
    const res = await report(cy, {
      reportedUserId: bo.userId,
      context: 'group',
      roomId: room.roomId,
      reason: 'hate',
      messageId: ugly.id,
      block: false,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ blocked: false, messages: 4 });
  });

  it('a member (no message) can be reported, with the room’s latest messages; someone not in the room cannot', async () => {
    const { room, bo, cy } = await groupTalk();
    expect((await report(cy, { reportedUserId: bo.userId, context: 'group', roomId: room.roomId, reason: 'spam' })).status).toBe(201);
    const outsider = await rig.account('out');
    const notHere = await report(cy, { reportedUserId: outsider.userId, context: 'group', roomId: room.roomId, reason: 'spam' });
    expect(notHere.status).toBe(400);
    expect(((await notHere.json()) as { code: string }).code).toBe('not_in_room');
  });

  it('refuses a reporter who is not a member of the room (IDOR), whatever ids they send', async () => {
    const { room, bo, ugly } = await groupTalk();
    const stranger = await rig.account('str');
    const res = await report(stranger, {
      reportedUserId: bo.userId,
      context: 'group',
      roomId: room.roomId,
      reason: 'harassment',
      messageId: ugly.id,
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: SAFETY_ERR.notInRoom, code: 'not_member' });
    expect(await t.server().deps.db.select().from(reports).where(eq(reports.reporterId, stranger.userId))).toEqual([]);
  });

  it('refuses ids of another room (IDOR): only messages of the room reported from are evidence', async () => {
    const first = await groupTalk();
    const other = await groupTalk();
    // Cy of the first room quotes messages of a room they are not in.
    const res = await report(first.cy, {
      reportedUserId: first.bo.userId,
      context: 'group',
      roomId: first.room.roomId,
      reason: 'harassment',
      messageIds: [...first.ids, Math.max(...other.ids, ...first.ids) + 1000],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: SAFETY_ERR.evidenceNotInRoom, code: 'evidence_not_in_room' });
    // The other room's id for this room's message: the server reads its own room, never another's.
    const wrongRoom = await report(other.cy, {
      reportedUserId: other.bo.userId,
      context: 'group',
      roomId: first.room.roomId,
      reason: 'harassment',
      messageId: first.ugly.id,
    });
    expect(wrongRoom.status).toBe(403);
  });

  it('refuses a message written by someone other than the person reported, and evidence sent as text', async () => {
    const { room, own, cy, ugly } = await groupTalk();
    const res = await report(cy, {
      reportedUserId: own.userId,
      context: 'group',
      roomId: room.roomId,
      reason: 'harassment',
      messageId: ugly.id,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('not_the_sender');
    const typed = await report(cy, {
      reportedUserId: own.userId,
      context: 'group',
      roomId: room.roomId,
      reason: 'harassment',
      messages: [{ id: '1', from: 'them', text: 'made up', sentAt: 1, receipt: 'x' }],
    });
    expect(typed.status).toBe(400);
    const noRoom = await report(cy, { reportedUserId: own.userId, context: 'group', reason: 'spam' });
    expect(noRoom.status).toBe(400);
  });
});

describe('reports from direct messages', () => {
  it('a message of the conversation is evidence; a third person cannot report from it, and a group room id is not a direct one', async () => {
    const [ana, bo, eve] = await Promise.all([rig.account('ana'), rig.account('bo'), rig.account('eve')]);
    await rig.befriend(ana, bo);
    const { roomId } = (await (await rig.call(ana, `/api/direct/${bo.username}`, { method: 'POST' })).json()) as OpenDirectAnswer;
    await rig.seed(roomId, bo.userId, ['send me money']);
    const page = (await (await rig.call(ana, `/api/rooms/${roomId}/messages`)).json()) as { messages: Array<{ id: number }> };
    const id = page.messages[0]!.id;
    const ok = await report(ana, { reportedUserId: bo.userId, context: 'direct', roomId, reason: 'spam', messageId: id });
    expect(ok.status).toBe(201);
    const c = await caseOf(bo.userId);
    expect(c.reports[0]!.messages).toEqual([expect.objectContaining({ from: 'reported', text: 'send me money', reported: true })]);
    expect((await report(eve, { reportedUserId: bo.userId, context: 'direct', roomId, reason: 'spam', messageId: id })).status).toBe(403);
    const g = await groupTalk();
    expect(
      (await report(g.cy, { reportedUserId: g.bo.userId, context: 'direct', roomId: g.room.roomId, reason: 'spam', messageId: g.ugly.id }))
        .status,
    ).toBe(404);
  });
});

describe('message ids outside rooms', () => {
  it('are refused for a profile report', async () => {
    const [ana, bo] = await Promise.all([rig.account('ana'), rig.account('bo')]);
    const res = await report(ana, { reportedUserId: bo.userId, context: 'profile', reason: 'spam', messageId: 3 });
    expect(res.status).toBe(400);
  });
});
