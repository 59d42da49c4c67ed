import { describe, expect, it, vi } from 'vitest';
import type { ComponentProps } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ConversationMessage } from '../../lib/conversation';
import { StrangerConversation } from './StrangerConversation';

type Props = ComponentProps<typeof StrangerConversation>;
const render = (over: Partial<Props>) =>
  renderToStaticMarkup(
    <StrangerConversation messages={[]} partnerName="ana" partnerTyping={false} composer={<textarea aria-label="Message" />} {...over} />,
  );

const messages: ConversationMessage[] = [
  { id: 's1', text: 'hi there', sentAt: 1, from: 'stranger', status: 'delivered' },
  { id: 'c1', text: 'hello ana', sentAt: 2, from: 'me', status: 'delivered' },
  { id: 'c2', text: 'too fast', sentAt: 3, from: 'me', status: 'failed' },
];

/** The markup of the list item holding `text`. */
const itemWith = (html: string, text: string) =>
  (html.match(/<li data-message-id[\s\S]*?<\/li>(?=<li|<\/ol>)/g) ?? []).find((i) => i.includes(text)) ?? '';

describe('a 1:1 chat with a stranger in the one conversation view', () => {
  it('names the conversation after the partner, says who wrote each message to screen readers only, and the text comes first', () => {
    const html = render({ messages });
    expect(html).toMatch(/role="log"[^>]*aria-label="Conversation with ana"/);
    expect(html).toMatch(/role="region" aria-label="Messages"/);
    expect(itemWith(html, 'hi there')).toMatch(/<span class="sr-only">ana: <\/span><p>/);
    expect(itemWith(html, 'hello ana')).toMatch(/<span class="sr-only">You: <\/span><p>/);
    expect(html).not.toContain('This is the beginning of the conversation.');
  });

  it('says how far each of ours got, and offers Retry for one not sent only while it can go', () => {
    const canRetry = render({ messages, onRetry: vi.fn() });
    expect(itemWith(canRetry, 'hello ana')).toMatch(/data-status="delivered"[^>]*>Delivered</);
    expect(itemWith(canRetry, 'too fast')).toMatch(/data-status="failed"[^>]*>Not sent</);
    expect(itemWith(canRetry, 'too fast')).toContain('aria-label="Retry sending “too fast”"');
    expect(itemWith(canRetry, 'hi there')).not.toContain('data-status');
    expect(canRetry).toContain('data-testid="message-status"');

    expect(render({ messages })).not.toContain('Retry');
  });

  it('offers nothing to do to a message: no replies, reactions, edits, deletions or menu', () => {
    expect(render({ messages, onRetry: vi.fn() })).not.toMatch(/Reply|React |Edit|Delete|Actions for|Report/);
  });

  it('says the partner is typing, and beside a video names its list of messages', () => {
    expect(render({ messages, partnerTyping: true })).toContain('ana is typing…');
    const panel = render({ messages, look: 'panel', listLabel: 'Messages', partnerName: 'Stranger' });
    expect(panel).toMatch(/<ol[^>]*aria-label="Messages"/);
    expect(panel).toContain('<textarea aria-label="Message">');
  });
});
