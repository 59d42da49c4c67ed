import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { messageReceipts, RECEIPT_PURPOSE, RECEIPT_VERSION, receiptBytes, type Relayed } from './receipts.ts';

// Strings rich in what used to separate fields: line breaks, and bytes that look like lengths.
const field = fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\u0000', '\u0001', 'é', '😀'), maxLength: 12 });
const relayed = fc.record({
  roomId: field,
  kind: fc.constantFrom('textChat', 'videoChat'),
  senderId: field,
  id: field,
  sentAt: fc.nat(),
  text: field,
}) satisfies fc.Arbitrary<Relayed>;
const same = (x: Relayed, y: Relayed) =>
  x.roomId === y.roomId && x.kind === y.kind && x.senderId === y.senderId && x.id === y.id && x.sentAt === y.sentAt && x.text === y.text;

describe('message receipts', () => {
  it('sign different messages as different bytes, whatever their fields contain', () => {
    fc.assert(
      fc.property(relayed, relayed, (x, y) => {
        fc.pre(!same(x, y));
        expect(receiptBytes(x).equals(receiptBytes(y))).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it('sign as different bytes the tuples a separator-joined encoding confuses (fields shifted into each other)', () => {
    // Pieces of text with a line break between each: any choice of three of those breaks as the
    // boundaries between room, sender and id makes tuples whose "\n"-joined forms are all equal.
    const piece = fc.string({ unit: fc.constantFrom('a', 'b', '\u0000', '\u0001'), maxLength: 3 });
    const choice = fc.uniqueArray(fc.nat({ max: 7 }), { minLength: 3, maxLength: 3 });
    const regroup = (pieces: string[], breaks: number[]): Relayed => {
      const at = breaks.map((n) => n % (pieces.length - 1)).sort((p, q) => p - q);
      const [a, b, c] = at as [number, number, number];
      const part = (from: number, to: number) => pieces.slice(from, to).join('\n');
      return {
        roomId: part(0, a + 1),
        kind: 'textChat',
        senderId: part(a + 1, b + 1),
        id: part(b + 1, c + 1),
        sentAt: 1,
        text: part(c + 1, pieces.length),
      };
    };
    fc.assert(
      fc.property(fc.array(piece, { minLength: 8, maxLength: 8 }), choice, choice, (pieces, p, q) => {
        const x = regroup(pieces, p);
        const y = regroup(pieces, q);
        fc.pre(!same(x, y));
        expect(receiptBytes(x).equals(receiptBytes(y))).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it('the same fields moved from one into the next are different bytes (the old "\\n" join made them equal)', () => {
    const victim = 'victim-id';
    const forged: Relayed = { roomId: `room\nme\nx`, kind: 'textChat', senderId: victim, id: 'm1', sentAt: 1, text: 'hi' };
    const sent: Relayed = { roomId: 'room', kind: 'textChat', senderId: 'me', id: `x\n${victim}\nm1`, sentAt: 1, text: 'hi' };
    expect(receiptBytes(forged).equals(receiptBytes(sent))).toBe(false);
    const receipts = messageReceipts(new Uint8Array(32).fill(7));
    expect(receipts.verify(forged, receipts.sign(sent))).toBe(false);
    expect(receipts.verify(sent, receipts.sign(sent))).toBe(true);
  });

  it('verify only what was signed, with this server’s secret', () => {
    const receipts = messageReceipts(new Uint8Array(32).fill(1));
    const other = messageReceipts(new Uint8Array(32).fill(2));
    fc.assert(
      fc.property(relayed, relayed, (x, y) => {
        const receipt = receipts.sign(x);
        expect(receipts.verify(x, receipt)).toBe(true);
        expect(other.verify(x, receipt)).toBe(false);
        if (!same(x, y)) expect(receipts.verify(y, receipt)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('are HMAC-SHA256 of the receipt bytes, as node:crypto computes it, for any fields, a picture and long texts', () => {
    const secret = new Uint8Array(32).fill(9);
    const receipts = messageReceipts(secret);
    const key = createHmac('sha256', secret).update(`${RECEIPT_VERSION} ${RECEIPT_PURPOSE}`).digest();
    const hmac = (m: Relayed) => createHmac('sha256', key).update(receiptBytes(m)).digest().subarray(0, 16).toString('base64url');
    const message = fc.record(
      {
        roomId: fc.string(),
        kind: fc.constantFrom('textChat', 'videoChat'),
        senderId: fc.string(),
        id: fc.string(),
        sentAt: fc.nat(),
        // Past the signer's first buffer (4 kB), several times over in UTF-8.
        text: fc.oneof(field, fc.string({ unit: fc.constantFrom('a', 'é', '😀'), minLength: 1000, maxLength: 6000 })),
        attachmentId: fc.uuid(),
      },
      { requiredKeys: ['roomId', 'kind', 'senderId', 'id', 'sentAt', 'text'] },
    );
    fc.assert(
      fc.property(message, (m) => {
        expect(receipts.sign(m)).toBe(hmac(m));
      }),
      { numRuns: 1000 },
    );
  });
});
