import { describe, expect, it, vi } from 'vitest';
import type { ComponentProps } from 'react';
import { renderToStaticMarkup as renderMarkup } from 'react-dom/server';
import { inEnglish } from '../../lib/i18n/testing';
import type { RoomMessage } from '@parley/contract/rooms';
import { storedMessage } from '../../realtime/testing/storedMessage';
import { emptyRoomState, type StoredRoomConnection, type StoredRoomState } from '../../realtime/storedRoom';
import { ConversationView } from './ConversationView';
import { ROOM_OFFERS, STREAM_OFFERS } from './messageOffers';

// Rendered as the app renders them: inside the i18n provider, here in English.
const renderToStaticMarkup = (node: Parameters<typeof renderMarkup>[0]) => renderMarkup(inEnglish(node));

/** A connection the view only reads from while rendering: any call would be a bug here. */
const room = new Proxy({} as StoredRoomConnection, {
  get: (_t, name) => vi.fn(() => Promise.reject(new Error(`unexpected ${String(name)}`))),
});

const state = (over: Partial<StoredRoomState> = {}): StoredRoomState => ({ ...emptyRoomState(), phase: 'open', ...over });

type Props = ComponentProps<typeof ConversationView>;
const render = (over: Partial<Props>) =>
  renderToStaticMarkup(
    <ConversationView state={state()} room={room} myId="u1" label="Conversation" placeholder="Write" writeBlocked={null} {...over} />,
  );

/** The page of a stream's chat, as LiveChatPanel sets the view up. */
const live = (over: Partial<Props>) =>
  render({
    look: 'panel',
    offers: STREAM_OFFERS,
    composerLabel: 'Message the stream',
    readPositions: false,
    typing: false,
    testIds: { list: 'live-chat', pending: 'live-pending' },
    ...over,
  });

/** The markup of the list item holding `text`. */
const itemWith = (html: string, text: string) => {
  const items = html.match(/<li data-message-id[\s\S]*?<\/li>(?=<li|<\/ol>)/g) ?? [];
  return items.find((i) => i.includes(text)) ?? '';
};

describe('one conversation view for every kind', () => {
  it('draws a stream gift in the dark panel and a group reply on the page with the same view', () => {
    const gift = storedMessage(5, { text: 'sent 10 gold', gift: 10, senderName: 'fan' });
    const reply = storedMessage(6, { text: 'me too', replyTo: { id: 5, senderName: 'ana', text: 'who is in?' } });

    const stream = live({ state: state({ messages: [gift] }) });
    expect(stream).toContain('data-testid="live-chat"');
    expect(stream).toMatch(/data-testid="live-gift"><span aria-hidden="true">🎁 <\/span>sent 10 gold/);
    expect(stream).toContain('bg-slate-800'); // the dark composer
    expect(stream).toContain('Message the stream');

    const group = render({ state: state({ messages: [reply] }) });
    expect(group).toMatch(/<blockquote[^>]*><span class="font-semibold">ana: <\/span><bdi>who is in\?<\/bdi><\/blockquote>/);
    expect(group).not.toContain('live-gift');
    expect(group).not.toContain('data-testid');
    expect(group).toMatch(/<label[^>]*>Message<\/label>/);
  });

  it('offers a stream’s moderators delete, mute, ban and appoint beside each message, and only when given', () => {
    const m = storedMessage(7, { text: 'buy followers cheap', senderName: 'spam' });
    const moderation = (msg: RoomMessage) => [
      { label: 'Mute', name: `Mute ${msg.senderName}`, run: vi.fn() },
      { label: 'Ban', name: `Ban ${msg.senderName}`, danger: true, run: vi.fn() },
      { label: 'Mod', name: `Make ${msg.senderName} a moderator`, run: vi.fn() },
    ];

    const asModerator = itemWith(live({ state: state({ messages: [m] }), canModerate: () => true, moderation }), 'buy followers');
    for (const name of ['Delete message from spam', 'Mute spam', 'Ban spam', 'Make spam a moderator'])
      expect(asModerator).toContain(`aria-label="${name}"`);

    const asViewer = itemWith(live({ state: state({ messages: [m] }), onReport: vi.fn() }), 'buy followers');
    expect(asViewer).not.toMatch(/Delete|Mute|Ban|moderator/);
    expect(asViewer).toContain('aria-label="Report spam&#x27;s message"');
    // A stream's chat has no replies, reactions or edits, and no menu to find them in.
    expect(asViewer).not.toMatch(/Reply|React|Edit|Actions for/);
  });

  it('keeps a group message’s actions behind its menu, which exists only when there is something in it', () => {
    const theirs = storedMessage(8, { text: 'hello all' });
    const html = render({ state: state({ messages: [theirs] }), offers: ROOM_OFFERS });
    expect(itemWith(html, 'hello all')).toContain('aria-label="Actions for bob&#x27;s message"');
    expect(itemWith(html, 'hello all')).not.toContain('Mute');

    const bare = render({ state: state({ messages: [theirs] }), offers: STREAM_OFFERS });
    expect(itemWith(bare, 'hello all')).not.toContain('Actions for');
  });

  it('shows our messages on their way with their status, and Retry once one failed', () => {
    const pending = [
      { clientId: 'a', text: 'on its way', replyTo: null, status: 'sending' as const },
      { clientId: 'b', text: 'in the tunnel', replyTo: null, status: 'failed' as const },
      { clientId: 'c', text: 'too fast', replyTo: null, status: 'failed' as const, problem: 'Slow down.' },
    ];
    const html = live({ state: state({ pending }) });
    expect(html.match(/data-testid="live-pending"/g)).toHaveLength(3);
    expect(html).toContain('Sending…');
    expect(html).toContain('Not sent yet: it goes once you are back online.');
    expect(html).toContain('Not sent: Slow down.');
    expect(html.match(/>Retry</g)).toHaveLength(2);
  });

  it('says who is typing, the mute, the unread marker and the receipt where the kind has them', () => {
    const messages = [storedMessage(1, { senderId: 'u1', text: 'mine' }), storedMessage(2, { text: 'theirs' })];
    const s = state({ messages, readAtOpen: 1, typing: { u2: 'bob' }, readBy: { u2: 1 } });

    const direct = render({ state: s, receiptsFor: 'u2' });
    expect(direct).toContain('bob is typing…');
    expect(direct).toContain('aria-label="New messages below"');
    expect(itemWith(direct, 'mine')).toContain('<span>Seen</span>');

    const stream = live({ state: s, writeBlocked: 'A moderator muted you in this chat.' });
    expect(stream).not.toContain('is typing');
    expect(stream).not.toContain('New messages');
    expect(stream).not.toContain('Seen');
    expect(stream).toMatch(/role="status"[^>]*>A moderator muted you in this chat\./);
    expect(stream).toMatch(/<textarea[^>]*disabled=""/);
  });

  it('after a jump to a search hit: the hit outlined and focusable, and newer messages offered where the gap is', () => {
    const messages = [
      storedMessage(10, { text: 'the hit' }),
      storedMessage(11, { text: 'after it' }),
      storedMessage(90, { text: 'latest' }),
    ];
    const html = render({ state: state({ messages, gapAfter: 11 }), focusId: 10 });
    expect(itemWith(html, 'the hit')).toMatch(/^<li data-message-id="10" data-highlighted="true" tabindex="-1"/);
    expect(itemWith(html, 'after it')).not.toContain('data-highlighted');
    // The button stands between the last message before the gap and the first after it.
    expect(html).toMatch(/after it[\s\S]*Load newer messages[\s\S]*latest/);
    expect(render({ state: state({ messages }) })).not.toContain('Load newer messages');
  });

  it('offers older messages, or says where the conversation begins', () => {
    expect(render({ state: state({ hasOlder: true }) })).toContain('Load older messages');
    expect(live({ state: state() })).toContain('This is the beginning of the conversation.');
  });
});
