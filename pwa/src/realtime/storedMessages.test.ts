import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RoomMessage } from '@parley/contract/rooms';
import { storedMessage } from './testing/storedMessage';
import { caughtUpTo, mergeMessages, replaceMessage, typingLine } from './storedMessages';
import { english } from '../lib/i18n/testing';

const msg = (id: number, text = `m${id}`) => storedMessage(id, { senderName: 'Ana', text });

describe('mergeMessages', () => {
  it('keeps id order and each id once, however live messages, catch-ups and pages interleave', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 20 }), { maxLength: 8 }), (batches) => {
        let held: RoomMessage[] = [];
        for (const b of batches)
          held = mergeMessages(
            held,
            b.map((id) => msg(id)),
          );
        const ids = held.map((m) => m.id);
        expect(ids).toEqual([...new Set(batches.flat())].sort((a, b) => a - b));
      }),
    );
  });

  it('a message seen again replaces the one held (the later copy wins)', () => {
    const held = mergeMessages([msg(1), msg(2)], [msg(2, 'edited')]);
    expect(held.map((m) => m.text)).toEqual(['m1', 'edited']);
  });
});

describe('caughtUpTo', () => {
  it('moves on through the ids that follow without a gap, never past one', () => {
    const held = [msg(3), msg(4), msg(6), msg(7)];
    expect(caughtUpTo(held, 2)).toBe(4);
    expect(caughtUpTo(held, 4)).toBe(4);
    expect(caughtUpTo(held, 5)).toBe(7);
    expect(caughtUpTo([], 9)).toBe(9);
  });

  it('passes over the ids of threads’ replies seen pass (the room’s sequence holds them elsewhere)', () => {
    const held = [msg(3), msg(4), msg(7)];
    expect(caughtUpTo(held, 2, new Set([5, 6]))).toBe(7);
    expect(caughtUpTo(held, 2, new Set([6]))).toBe(4);
  });
});

describe('replaceMessage', () => {
  it('replaces only a message held', () => {
    expect(replaceMessage([msg(1)], msg(1, 'x'))[0]!.text).toBe('x');
    expect(replaceMessage([msg(1)], msg(5))).toHaveLength(1);
  });
});

describe('typingLine', () => {
  it('names one or two, then counts the others', () => {
    expect(typingLine([], english)).toBeNull();
    expect(typingLine(['Ana'], english)).toBe('Ana is typing…');
    expect(typingLine(['Ana', 'Bo'], english)).toBe('Ana and Bo are typing…');
    expect(typingLine(['Ana', 'Bo', 'Cy'], english)).toBe('Ana and 2 others are typing…');
  });
});
