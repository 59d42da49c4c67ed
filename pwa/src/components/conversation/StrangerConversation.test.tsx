import { describe, expect, it } from 'vitest';
import type { ComponentProps } from 'react';
import { renderToStaticMarkup as renderMarkup } from 'react-dom/server';
import { inEnglish } from '../../lib/i18n/testing';
import type { RoomMessage } from '@parley/contract/rooms';
import { emptyRoomState } from '../../realtime/storedRoom';
import { StrangerConversation } from './StrangerConversation';

// Rendered as the app renders them: inside the i18n provider, here in English.
const renderToStaticMarkup = (node: Parameters<typeof renderMarkup>[0]) => renderMarkup(inEnglish(node));

type Props = ComponentProps<typeof StrangerConversation>;

const message = (over: Partial<RoomMessage>): RoomMessage => ({
  roomId: 'room-1',
  id: 1,
  senderId: 'me',
  senderName: 'me-name',
  text: '',
  sentAt: 1,
  editedAt: null,
  deleted: false,
  replyTo: null,
  mentions: [],
  reactions: [],
  clientId: null,
  ...over,
});
const messages = [message({ id: 1, senderId: 'u2', senderName: 'ana', text: 'hi there' }), message({ id: 2, text: 'hello ana' })];
const state = { ...emptyRoomState(), phase: 'open' as const, messages, readBy: {} };
const room = {
  react: async () => true,
  edit: async () => true,
  remove: async () => true,
  retry: () => undefined,
  discard: () => undefined,
};

const render = (over: Partial<Props>) =>
  renderToStaticMarkup(
    <StrangerConversation
      state={state}
      room={room}
      myId="me"
      partnerId="u2"
      partnerName="ana"
      composer={<textarea aria-label="Message" />}
      {...over}
    />,
  );

/** The markup of the list item holding `text`. */
const itemWith = (html: string, text: string) =>
  (html.match(/<li data-message-id[\s\S]*?<\/li>(?=<li|<\/ol>)/g) ?? []).find((i) => i.includes(text)) ?? '';

describe('a 1:1 chat with a stranger in the one conversation view', () => {
  it('names the conversation after the partner, says who wrote each message to screen readers only, and the text comes first', () => {
    const html = render({});
    expect(html).toMatch(/role="log"[^>]*aria-label="Conversation with ana"/);
    expect(html).toMatch(/role="region" aria-label="Messages"/);
    expect(itemWith(html, 'hi there')).toMatch(/<span class="sr-only">ana: <\/span><p>/);
    expect(itemWith(html, 'hello ana')).toMatch(/<span class="sr-only">You: <\/span><p>/);
    expect(html).not.toContain('This is the beginning of the conversation.');
  });

  it('says ours were delivered once the partner’s page showed them (their read position), and shows ours on their way with Retry', () => {
    expect(itemWith(render({}), 'hello ana')).toMatch(/data-status="sent"[^>]*>Sent</);
    expect(itemWith(render({ state: { ...state, readBy: { u2: 2 } } }), 'hello ana')).toMatch(/data-status="delivered"[^>]*>Delivered</);
    expect(itemWith(render({}), 'hi there')).not.toContain('data-status');
    const waiting = render({ state: { ...state, pending: [{ clientId: 'c1', text: 'too fast', replyTo: null, status: 'failed' }] } });
    expect(waiting).toContain('Not sent yet');
    expect(waiting).toContain('Retry');
  });

  it('offers reactions, and edits and deletions of our own, while the chat lasts; nothing once it ended', () => {
    const on = render({});
    expect(on).toMatch(/Actions for|React/);
    expect(on).not.toMatch(/Reply/);
    expect(render({ room: null })).not.toMatch(/Reply|React |Edit|Delete|Actions for/);
  });

  it('shows a stranger’s link as text with one "Open link" beside it, and no preview', () => {
    const withLink = [message({ id: 3, senderId: 'u2', senderName: 'ana', text: 'see https://shady.example/win now' })];
    const item = itemWith(render({ state: { ...state, messages: withLink } }), 'shady');
    expect(item).toContain('<bdi>https://shady.example/win</bdi> <a href="https://shady.example/win"');
    expect(item.match(/<a /g)).toHaveLength(1);
    expect(item).toMatch(/rel="noopener noreferrer nofollow ugc"[^>]*aria-label="Open link to shady.example"[^>]*>Open link<\/a>/);
    expect(item).not.toContain('link-preview');
  });

  it('says the partner is typing, and beside a video names its list of messages', () => {
    expect(render({ state: { ...state, typing: { u2: 'ana' } } })).toContain('ana is typing…');
    const panel = render({ look: 'panel', listLabel: 'Messages', partnerName: 'Stranger' });
    expect(panel).toMatch(/<ol[^>]*aria-label="Messages"/);
    expect(panel).toContain('<textarea aria-label="Message">');
  });
});
