import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup as renderMarkup } from 'react-dom/server';
import { inEnglish } from '../../lib/i18n/testing';
import { storedMessage } from '../../realtime/testing/storedMessage';
import { MessageRow, type MessageActions } from './MessageRow';

// Rendered as the app renders them: inside the i18n provider, here in English.
const renderToStaticMarkup = (node: Parameters<typeof renderMarkup>[0]) => renderMarkup(inEnglish(node));

const actions: MessageActions = { onReply: vi.fn(), onReact: vi.fn(), onEdit: vi.fn(), onDelete: vi.fn() };

describe('a message as a conversation shows it', () => {
  it('shows links and markup as the text they are, in the message and in the quote of a reply', () => {
    const text = 'see <a href="https://evil.example">this</a> https://evil.example <img src=x onerror=alert(1)>';
    const html = renderToStaticMarkup(
      <MessageRow
        message={storedMessage(2, { text, replyTo: { id: 1, senderName: 'ana', text: '<b>bold</b> https://quoted.example' } })}
        myId="u1"
        canModerate={false}
        seenBy={null}
        actions={actions}
      />,
    );
    expect(html).not.toMatch(/<a[\s>]|<img|<b>/);
    expect(html).toContain('&lt;a href=&quot;https://evil.example&quot;&gt;this&lt;/a&gt; https://evil.example');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt; https://quoted.example');
  });
});
