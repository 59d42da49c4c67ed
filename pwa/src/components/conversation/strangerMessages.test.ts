import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../lib/conversation';
import { adaptMessages } from './strangerMessages';

const mine = (id: string, over: Partial<ConversationMessage> = {}): ConversationMessage => ({
  id,
  text: `text ${id}`,
  sentAt: 1,
  from: 'me',
  status: 'sending',
  ...over,
});
const theirs = (id: string, over: Partial<ConversationMessage> = {}): ConversationMessage => ({ ...mine(id), from: 'stranger', ...over });

describe("a 1:1 chat's messages as the conversation view draws them", () => {
  it('says how far ours got, in the words of the 1:1 chats, and keeps the connection’s id for Retry', () => {
    const a = adaptMessages(
      null,
      [
        mine('c1', { status: 'delivered' }),
        mine('c2', { status: 'failed' }),
        mine('c3', { status: 'failed', unsent: 'connection' }),
        theirs('s1', { emoji: ['parley_fox'] }),
      ],
      'ana',
      ['parley_owl'],
    );
    expect(a.shown.map((m) => m.delivery?.text)).toEqual(['Delivered', 'Not sent', 'Not sent yet', undefined]);
    expect(a.shown.map((m) => [m.senderId, m.senderName, m.clientId])).toEqual([
      ['me', 'You', 'c1'],
      ['me', 'You', 'c2'],
      ['me', 'You', 'c3'],
      ['stranger', 'ana', null],
    ]);
    // Theirs: the shortcodes the server checked; ours: the ones we own.
    expect(a.shown.map((m) => m.emoji)).toEqual([['parley_owl'], ['parley_owl'], ['parley_owl'], ['parley_fox']]);
  });

  it('keeps each message’s number and, while unchanged, its object; a new conversation numbers afresh', () => {
    // The names of the emoji we own, kept by the page while they do not change.
    const owned: string[] = [];
    const first = [mine('x'), theirs('x')];
    const a = adaptMessages(null, first, 'ana', owned);
    expect(a.shown.map((m) => m.id)).toEqual([1, 2]);

    // A new one came and the oldest went from the top (the video panel keeps a limited number).
    const c = adaptMessages(a, [first[1]!, theirs('y')], 'ana', owned);
    expect(c.shown.map((m) => m.id)).toEqual([2, 3]);
    expect(c.shown[0]).toBe(a.shown[1]);

    // Ours was delivered: only its row is new.
    const delivered = mine('x', { status: 'delivered' });
    const d = adaptMessages(a, [delivered, first[1]!], 'ana', owned);
    expect(d.shown.map((m) => m.id)).toEqual([1, 2]);
    expect(d.shown[0]).not.toBe(a.shown[0]);
    expect(d.shown[0]!.delivery).toEqual({ status: 'delivered', text: 'Delivered' });
    expect(d.shown[1]).toBe(a.shown[1]);

    const empty = adaptMessages(d, [], 'ana', owned);
    expect(adaptMessages(empty, [theirs('z')], 'bo', owned).shown.map((m) => [m.id, m.senderName])).toEqual([[1, 'bo']]);
  });
});
