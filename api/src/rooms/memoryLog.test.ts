import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RoomMessage } from '@parley/contract/rooms';
import { memoryLog } from './memoryLog.ts';

/**
 * The held log packs its messages into bytes (rooms/packedMessages.ts); whatever is done to a room
 * (posts with any text, resends, replies, edits, deletions, reactions, a ban's removal, more posts
 * than it holds, a hand-over), what it reads back is what a plain list of the same messages holds.
 */

type Op =
  | { op: 'post'; sender: number; name: number; text: string; client: number; replyTo: number }
  | { op: 'edit'; id: number; text: string }
  | { op: 'remove'; id: number }
  | { op: 'react'; id: number; user: number; emoji: string; on: boolean }
  | { op: 'ban'; sender: number }
  | { op: 'handOver' };

const SENDERS = ['a1b2c3d4-0000-4000-8000-000000000001', 'a1b2c3d4-0000-4000-8000-000000000002', 'x'];
const NAMES = ['Ann', 'Bo', 'Zoë 🙂'];
// Every kind of text: empty, ASCII, any Unicode, lone surrogates (kept as they came), long.
const text = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc
    .array(fc.oneof(fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0x20, max: 0x7e })), { maxLength: 10 })
    .map((units) => String.fromCharCode(...units)),
  fc.string({ minLength: 300, maxLength: 900 }),
);
// Client ids as a page may send them: mostly ASCII, some with characters of several bytes, some with a lone surrogate.
const clientIdOf = (sender: number, client: number) => `c-${sender}-${client}${['', '', '', 'é🙂', '\ud800'][client % 5]}`;
const ops: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        op: fc.constant('post' as const),
        sender: fc.nat(2),
        name: fc.nat(2),
        text,
        client: fc.nat(40),
        replyTo: fc.integer({ min: -1, max: 60 }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('edit' as const), id: fc.nat(60), text }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('remove' as const), id: fc.nat(60) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('react' as const),
        id: fc.nat(60),
        user: fc.nat(2),
        emoji: fc.constantFrom('👍', '😂'),
        on: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('ban' as const), sender: fc.nat(2) }) },
    { weight: 1, arbitrary: fc.constant({ op: 'handOver' as const }) },
  ),
  { maxLength: 120 },
);

/** The same log as a plain list of messages. */
function plainLog(capacity: number) {
  let list: RoomMessage[] = [];
  let lastId = 0;
  const find = (id: number) => list.find((m) => m.id === id);
  return {
    post(m: { senderId: string; senderName: string; text: string; clientId: string; replyTo: number | undefined }, sentAt: number) {
      const again = [...list].reverse().find((x) => x.clientId === m.clientId && x.senderId === m.senderId);
      if (again) return;
      const quoted = m.replyTo === undefined ? undefined : find(m.replyTo);
      list.push({
        roomId: 'r',
        id: ++lastId,
        senderId: m.senderId,
        senderName: m.senderName,
        text: m.text,
        sentAt,
        editedAt: null,
        deleted: false,
        replyTo: quoted && !quoted.deleted ? { id: quoted.id, senderName: quoted.senderName, text: quoted.text.slice(0, 140) } : null,
        mentions: [],
        reactions: [],
        clientId: m.clientId,
        receipt: undefined,
      });
      list = list.slice(-capacity);
    },
    edit(id: number, text: string, at: number) {
      const m = find(id);
      if (m && !m.deleted) Object.assign(m, { text, editedAt: at });
    },
    erase(id: number) {
      const m = find(id);
      if (m) Object.assign(m, { text: '', deleted: true, reactions: [] });
    },
    react(id: number, userId: string, emoji: string, on: boolean) {
      const m = find(id);
      if (!m || m.deleted) return;
      const r = m.reactions.find((x) => x.emoji === emoji);
      if (on && !r) m.reactions.push({ emoji, userIds: [userId] });
      else if (on && r && !r.userIds.includes(userId)) r.userIds.push(userId);
      else if (!on && r) {
        r.userIds = r.userIds.filter((u) => u !== userId);
        if (r.userIds.length === 0) m.reactions = m.reactions.filter((x) => x !== r);
      }
    },
    ban(senderId: string) {
      for (const m of list) if (m.senderId === senderId) this.erase(m.id);
    },
    all: () => list,
  };
}

describe('a held log reads back what it was given', () => {
  it('in any sequence of posts, resends, edits, deletions, reactions, bans and hand-overs', async () => {
    await fc.assert(
      fc.asyncProperty(ops, fc.integer({ min: 1, max: 40 }), async (sequence, capacity) => {
        let clock = 1_700_000_000_000;
        const now = () => ++clock;
        let log = memoryLog({ capacity, now, seal: (m) => `sealed ${m.id} ${m.text.length}` });
        const plain = plainLog(capacity);
        for (const o of sequence) {
          if (o.op === 'post') {
            const m = {
              roomId: 'r',
              senderId: SENDERS[o.sender]!,
              senderName: NAMES[o.name]!,
              text: o.text,
              clientId: clientIdOf(o.sender, o.client),
              replyTo: o.replyTo < 0 ? undefined : o.replyTo,
              mentions: [],
            };
            const sent = log.insertNow(m);
            plain.post(m, clock);
            // The copy sent is the message as held, sealed.
            const held = plain.all().find((x) => x.clientId === m.clientId && x.senderId === m.senderId)!;
            expect(sent).toEqual({ ...held, receipt: held.deleted ? undefined : `sealed ${held.id} ${held.text.length}` });
          } else if (o.op === 'edit') {
            await log.edit('r', o.id, o.text, undefined);
            plain.edit(o.id, o.text, clock);
          } else if (o.op === 'remove') {
            await log.remove('r', o.id, SENDERS[0]!);
            plain.erase(o.id);
          } else if (o.op === 'react') {
            await log.react('r', o.id, SENDERS[o.user]!, o.emoji, o.on);
            plain.react(o.id, SENDERS[o.user]!, o.emoji, o.on);
          } else if (o.op === 'ban') {
            log.removeFrom('r', SENDERS[o.sender]!);
            plain.ban(SENDERS[o.sender]!);
          } else {
            // Another process takes the room over with what this one held.
            const handed = { lastId: log.lastId('r'), messages: log.all('r') };
            log = memoryLog({ capacity, now, seal: (m) => `sealed ${m.id} ${m.text.length}` });
            log.restore('r', handed);
          }
          const expected = plain.all().map((m) => ({ ...m, receipt: undefined }));
          expect(log.all('r')).toEqual(expected);
        }
        const expected = plain.all();
        const sealed = (ms: RoomMessage[]) => ms.map((m) => ({ ...m, receipt: m.deleted ? undefined : `sealed ${m.id} ${m.text.length}` }));
        const last = expected.at(-1)?.id ?? 0;
        expect((await log.before('r', undefined, 5)).messages).toEqual(sealed(expected.slice(-5)));
        expect((await log.after('r', last - 3, 2)).messages).toEqual(sealed(expected.filter((m) => m.id > last - 3).slice(0, 2)));
        expect(await log.byIds('r', [last, last - 1, 999])).toEqual(sealed(expected.filter((m) => m.id === last || m.id === last - 1)));
        for (const m of expected) expect(await log.author('r', m.id)).toEqual({ senderId: m.senderId, deleted: m.deleted });
      }),
      { numRuns: 300 },
    );
  });

  it('a resend is found by its client id among hundreds, and a room dropped is forgotten', async () => {
    const log = memoryLog({ capacity: 500 });
    for (let i = 0; i < 400; i++)
      log.insertNow({ roomId: 'r', senderId: SENDERS[i % 2]!, senderName: 'n', text: `m${i}`, clientId: `c${i}`, mentions: [] });
    const again = log.insertNow({ roomId: 'r', senderId: SENDERS[1]!, senderName: 'n', text: 'other', clientId: 'c7', mentions: [] });
    expect(again).toMatchObject({ id: 8, text: 'm7' });
    // The same client id from the other member is another message.
    expect(log.insertNow({ roomId: 'r', senderId: SENDERS[0]!, senderName: 'n', text: 'x', clientId: 'c7', mentions: [] })).toMatchObject({
      id: 401,
    });
    log.drop('r');
    expect(log.all('r')).toEqual([]);
    expect(log.lastId('r')).toBe(0);
  });
});
