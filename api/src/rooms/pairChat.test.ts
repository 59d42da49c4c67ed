import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { chatEvents } from '@parley/contract/matchmaking';
import { roomEvents, type JoinAnswer, type PostAnswer, type ReadReceipt, type RoomMessage } from '@parley/contract/rooms';
import { personWithAccount as signedMember } from '../testing/members.ts';
import { messageReceipts } from '../platform/receipts.ts';
import { next, person, silent, socketTestServer } from '../testing/socketClients.ts';
import type { TokenUser } from '@parley/contract/auth';
import { UI_LOCALES } from '@parley/contract/locales';
import { errorIn } from '../platform/i18n/errors.ts';
import { PAIR_REFUSALS } from './pairPolicy.ts';

// A 1:1 chat's messages on the room core: its two members only, held for the chat's life, signed.
const t = socketTestServer();

const join = (s: Socket, roomId: string, after?: number) =>
  s.timeout(10_000).emitWithAck(roomEvents.join, { roomId, ...(after !== undefined && { after }) }) as Promise<JoinAnswer>;
const post = (s: Socket, roomId: string, text: string, clientId: string = randomUUID()) =>
  s.timeout(10_000).emitWithAck(roomEvents.post, { roomId, clientId, text }) as Promise<PostAnswer>;
const posted = async (s: Socket, roomId: string, text: string, clientId?: string) => {
  const a = await post(s, roomId, text, clientId);
  if (!a.ok) throw new Error(`refused: ${a.message}`);
  return a.message;
};

async function chatting(roomType: 'textChat' | 'videoChat' = 'textChat', a = person(), ca = {}) {
  const { ka, kb, ra, b } = await t.pair(a, person(), { roomType }, { roomType }, ca);
  expect(await join(ka, ra.roomId)).toMatchObject({ ok: true, messages: [] });
  expect(await join(kb, ra.roomId)).toMatchObject({ ok: true, messages: [] });
  return { ka, kb, roomId: ra.roomId, a, b };
}

const receipts = () => messageReceipts(t.server().deps.secrets.jwtSecret);
const verifies = (m: RoomMessage, kind: string) =>
  receipts().verify({ roomId: m.roomId, kind, senderId: m.senderId, id: String(m.id), sentAt: m.sentAt, text: m.text }, m.receipt ?? '');

describe('a 1:1 chat on the room core', () => {
  it('words its refusals in every language of the server catalog', () => {
    for (const locale of UI_LOCALES.filter((l) => l !== 'en'))
      for (const english of Object.values(PAIR_REFUSALS)) expect(errorIn(locale, english), `${locale}: ${english}`).not.toBe(english);
  });

  it.each(['textChat', 'videoChat'] as const)(
    '%s: messages reach the partner under ids rising by one, each signed for a report',
    async (kind) => {
      const { ka, kb, roomId, a } = await chatting(kind);
      const got = next<RoomMessage>(kb, roomEvents.message);
      const first = await posted(ka, roomId, 'hello');
      expect(first).toMatchObject({ roomId, id: 1, senderId: a.userId, text: 'hello' });
      expect(await got).toEqual(first);
      expect(verifies(first, kind)).toBe(true);
      // The receipt names the kind and the text: another kind or another text does not pass.
      expect(verifies(first, kind === 'textChat' ? 'videoChat' : 'textChat')).toBe(false);
      expect(verifies({ ...first, text: 'hullo' }, kind)).toBe(false);
      expect((await posted(kb, roomId, 'hi!')).id).toBe(2);
    },
  );

  it('a resend under the same client id is answered with the copy kept, and reaches nobody twice', async () => {
    const { ka, kb, roomId } = await chatting();
    const clientId = randomUUID();
    const got = next<RoomMessage>(kb, roomEvents.message);
    const once = await posted(ka, roomId, 'only once', clientId);
    await got;
    const twice = silent(kb, roomEvents.message);
    expect(await posted(ka, roomId, 'only once', clientId)).toEqual(once);
    expect(await twice).toBe(true);
  });

  it('nobody else reads or writes it: a stranger, another page of a member, a chat that ended', async () => {
    const { ka, kb, roomId, a } = await chatting();
    const stranger = await t.open(person());
    const refused = { ok: false, message: 'You are not in a chat right now.', code: 'not_in_room' };
    expect(await join(stranger, roomId)).toEqual(refused);
    expect(await post(stranger, roomId, 'let me in')).toEqual(refused);
    // Another tab of the same person is not their seat in this chat.
    const otherTab = await t.open(a);
    expect(await join(otherTab, roomId)).toEqual(refused);
    expect(await post(otherTab, roomId, 'me too')).toEqual(refused);
    // Typing from outside reaches nobody.
    const quiet = silent(kb, roomEvents.typing);
    stranger.emit(roomEvents.typing, { roomId, typing: true });
    expect(await quiet).toBe(true);
    const typing = next<{ userId: string; typing: boolean }>(kb, roomEvents.typing);
    ka.emit(roomEvents.typing, { roomId, typing: true });
    expect(await typing).toMatchObject({ userId: a.userId, typing: true });
    // Once the chat ended, its messages are gone with it and posting says so.
    const left = next(kb, chatEvents.partnerLeft);
    ka.emit(chatEvents.stop);
    await left;
    expect(await post(kb, roomId, 'still there?')).toEqual(refused);
    expect(await join(kb, roomId)).toEqual(refused);
  });

  it('what was sent while the partner was away reaches them by catch-up when their page takes the chat back', async () => {
    const me = person();
    const tab = randomUUID();
    const { ka, kb, roomId } = await chatting('textChat', me, { query: { tab } });
    const hello = await posted(kb, roomId, 'before');
    const away = next(kb, chatEvents.partnerAway);
    ka.io.engine.close();
    await away;
    // Kept for them meanwhile, not refused.
    const during = await posted(kb, roomId, 'while you were away');
    const again = await t.open(me, { query: { tab } });
    // Not theirs until the page took the chat back.
    expect(await join(again, roomId, hello.id)).toMatchObject({ ok: false, code: 'not_in_room' });
    expect(await again.emitWithAck(chatEvents.resume, { roomId })).toEqual({ ok: true, partnerAway: false });
    const back = await join(again, roomId, hello.id);
    expect(back).toMatchObject({ ok: true, messages: [during] });
    // And live from then on.
    const live = next<RoomMessage>(again, roomEvents.message);
    await posted(kb, roomId, 'welcome back');
    expect((await live).text).toBe('welcome back');
  });

  it('"seen" is the partner’s read position; edits are signed again, deletions lose their receipt, reactions reach both', async () => {
    const { ka, kb, roomId, b } = await chatting();
    const m = await posted(ka, roomId, 'helo');
    const seen = next<ReadReceipt>(ka, roomEvents.read);
    await kb.emitWithAck(roomEvents.read, { roomId, lastReadId: 99 });
    // Never past the last message.
    expect(await seen).toEqual({ roomId, userId: b.userId, lastReadId: m.id });
    expect(await join(ka, roomId)).toMatchObject({ ok: true, readBy: { [b.userId]: m.id } });

    const edited = next<RoomMessage>(kb, roomEvents.changed);
    expect(await ka.emitWithAck(roomEvents.edit, { roomId, id: m.id, text: 'hello' })).toEqual({ ok: true });
    const e = await edited;
    expect(e).toMatchObject({ id: m.id, text: 'hello' });
    expect(e.editedAt).not.toBeNull();
    expect(verifies(e, 'textChat')).toBe(true);
    // Only the author edits or deletes.
    expect(await kb.emitWithAck(roomEvents.edit, { roomId, id: m.id, text: 'mine now' })).toMatchObject({ ok: false, code: 'not_author' });
    expect(await kb.emitWithAck(roomEvents.delete, { roomId, id: m.id })).toMatchObject({ ok: false, code: 'not_author' });

    const reacted = next<RoomMessage>(ka, roomEvents.changed);
    expect(await kb.emitWithAck(roomEvents.react, { roomId, id: m.id, emoji: '👍', on: true })).toEqual({ ok: true });
    expect((await reacted).reactions).toEqual([{ emoji: '👍', userIds: [b.userId] }]);

    const deleted = next<RoomMessage>(kb, roomEvents.changed);
    expect(await ka.emitWithAck(roomEvents.delete, { roomId, id: m.id })).toEqual({ ok: true });
    const d = await deleted;
    expect(d).toMatchObject({ deleted: true, text: '' });
    expect(d.receipt).toBeUndefined();
  });

  it('a report filed after the chat ended shows the signed messages; a changed one is refused as forged', async () => {
    const member = async () => (await signedMember(t.server())).user;
    const [a, b] = [await member(), await member()];
    const { ka, kb, ra } = await t.pair(a, b, { roomType: 'textChat' }, { roomType: 'textChat' });
    const roomId = ra.roomId;
    await join(ka, roomId);
    await join(kb, roomId);
    const said = await posted(kb, roomId, 'something nasty');
    const evidence = { id: String(said.id), from: 'them' as const, text: said.text, sentAt: said.sentAt, receipt: said.receipt! };
    const file = async (user: TokenUser, messages: (typeof evidence)[]) =>
      t.server().api('/api/reports', {
        method: 'POST',
        headers: { authorization: `Bearer ${await t.server().deps.tokens.sign(user)}` },
        json: { reportedUserId: b.userId, context: 'textChat', roomId, reason: 'harassment', block: false, messages },
      });
    const left = next(kb, chatEvents.partnerLeft);
    ka.emit(chatEvents.stop);
    await left;
    const forged = await file(a, [{ ...evidence, text: 'something worse' }]);
    expect(forged.status).toBe(400);
    const res = await file(a, [evidence]);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ messages: 1 });
  });
});
