import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup as renderMarkup } from 'react-dom/server';
import { inEnglish } from '../../lib/i18n/testing';
import { storedMessage } from '../../realtime/testing/storedMessage';
import { MessageRow, type MessageActions } from './MessageRow';
import { TranslateContext, type Translate } from './translation';

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
    expect(html).not.toMatch(/<img|<b>/);
    for (const piece of ['see &lt;a href=&quot;', '&quot;&gt;this&lt;/a&gt; ', ' &lt;img src=x onerror=alert(1)&gt;'])
      expect(html).toContain(`<bdi>${piece}</bdi>`);
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt; https://quoted.example');
    // Guarded (the default): the links stay text; each has one "Open link" beside it, and the quote none.
    expect(anchors(html)).toEqual([
      { href: 'https://evil.example', rel: 'noopener noreferrer nofollow ugc', target: '_blank', text: 'Open link' },
      { href: 'https://evil.example', rel: 'noopener noreferrer nofollow ugc', target: '_blank', text: 'Open link' },
    ]);
  });

  it('makes http and https links anchors where links are open, and nothing else', () => {
    const text = 'go https://a.example/x?y=1. or javascript:alert(1) or data:text/html,hi or http://b.example';
    const html = renderToStaticMarkup(
      <MessageRow message={storedMessage(3, { text })} myId="u1" canModerate={false} seenBy={null} actions={actions} links="open" />,
    );
    expect(anchors(html)).toEqual([
      { href: 'https://a.example/x?y=1', rel: 'noopener noreferrer nofollow ugc', target: '_blank', text: 'https://a.example/x?y=1' },
      { href: 'http://b.example', rel: 'noopener noreferrer nofollow ugc', target: '_blank', text: 'http://b.example' },
    ]);
    expect(html).toContain('javascript:alert(1) or data:text/html,hi');
  });
});

/** The anchors of some markup (React's static markup: attributes in double quotes): where each goes, how, and what it says. */
function anchors(html: string) {
  return [...html.matchAll(/<a ([^>]*)>(.*?)<\/a>/g)].map(([, attrs, inner]) => {
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(attrs!)?.[1] ?? null;
    return { href: attr('href'), rel: attr('rel'), target: attr('target'), text: inner!.replace(/<[^>]+>/g, '') };
  });
}

describe('Translate on a message', () => {
  const row = (translate: Translate | null, over: Parameters<typeof storedMessage>[1], myId = 'u1') =>
    renderToStaticMarkup(
      <TranslateContext.Provider value={translate}>
        <MessageRow message={storedMessage(4, over)} myId={myId} canModerate={false} seenBy={null} actions={actions} />
      </TranslateContext.Provider>,
    );
  const translator: Translate = () => Promise.reject(new Error('not in a static render'));
  const buttons = (html: string) => [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]);

  it("is offered on someone else's words only where the server translates", () => {
    expect(buttons(row(translator, { text: '¿De dónde eres?' }))).toContain('Translate');
    // No translator on this server: no button, and nothing could be sent.
    expect(buttons(row(null, { text: '¿De dónde eres?' }))).not.toContain('Translate');
    // Our own message, a deleted one, a picture without words: nothing to translate.
    expect(buttons(row(translator, { text: 'hi' }, 'u2'))).not.toContain('Translate');
    expect(buttons(row(translator, { text: '', deleted: true }))).not.toContain('Translate');
  });
});

describe('a sticker or GIF message', () => {
  const sticker = {
    kind: 'sticker' as const,
    id: 'hello/wave',
    url: '/stickers/hello/wave.webp',
    width: 160,
    height: 160,
    alt: 'Waving hand',
  };
  it('shows the image the server named, with its name for screen readers, and no empty text', () => {
    const html = renderToStaticMarkup(
      <MessageRow message={storedMessage(4, { text: '', media: sticker })} myId="u1" canModerate={false} seenBy={null} actions={actions} />,
    );
    expect(html).toMatch(/<img src="\/stickers\/hello\/wave.webp" alt="Sticker: Waving hand" width="120" height="120"/);
    expect(html).not.toContain('<p></p>');
  });
  it('shows nothing of it once deleted', () => {
    const html = renderToStaticMarkup(
      <MessageRow
        message={storedMessage(5, { text: '', media: sticker, deleted: true })}
        myId="u1"
        canModerate={false}
        seenBy={null}
        actions={actions}
      />,
    );
    expect(html).not.toContain('<img');
  });
});
