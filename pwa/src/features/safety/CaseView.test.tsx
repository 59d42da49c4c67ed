import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ReportView } from '@parley/contract/safety';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Report } from './CaseView';

// The case view words some labels with the app's shared i18n instance, as the app activates it.
i18n.loadAndActivate({ locale: 'en', messages: {} });
const inEnglish = (node: Parameters<typeof renderToStaticMarkup>[0]) => <I18nProvider i18n={i18n}>{node}</I18nProvider>;

const report = (messages: ReportView['messages']): ReportView => ({
  id: 'r1',
  reporter: { userId: 'u1', username: 'cy' },
  context: 'group',
  reason: 'spam',
  note: '',
  createdAt: '2026-11-29T10:00:00.000Z',
  resolvedAt: null,
  resolution: null,
  messages,
  hasSnapshot: false,
  weight: 1,
  encounter: null,
});

describe('a report as a moderator reads it', () => {
  it('names the sticker and the GIF a message carried, in words and as the image, and calls no such message deleted', () => {
    const html = renderToStaticMarkup(
      inEnglish(
        <Report
          report={report([
            {
              from: 'reported',
              sender: 'bo',
              text: '',
              sentAt: 1,
              media: { kind: 'sticker', id: 'hello/wave', url: '/stickers/hello/wave.webp', width: 160, height: 160, alt: 'Waving hand' },
            },
            {
              from: 'reported',
              sender: 'bo',
              text: '',
              sentAt: 2,
              reported: true,
              media: { kind: 'gif', id: 'happy-cat', url: '/api/gifs/file/happy-cat.gif', width: 40, height: 30, alt: 'happy cat' },
            },
            { from: 'reported', sender: 'bo', text: '', sentAt: 3 },
          ])}
        />,
      ),
    );
    expect(html).toContain('src="/stickers/hello/wave.webp" alt="Sticker: Waving hand"');
    expect(html).toContain('src="/api/gifs/file/happy-cat.gif" alt="GIF: happy cat"');
    expect(html).toContain('>Sticker: Waving hand</span>');
    expect(html).toContain('>GIF: happy cat</span>');
    // Only the message that carried nothing at all reads as deleted.
    expect(html.match(/<em>deleted<\/em>/g)).toHaveLength(1);
  });
});
