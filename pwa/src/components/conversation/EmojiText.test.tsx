import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { inEnglish } from '../../lib/i18n/testing';
import { EmojiText } from './EmojiText.tsx';

describe('EmojiText', () => {
  it('shows only verified shortcodes as images, from the emoji folder, and leaves the rest as text', () => {
    const html = renderToStaticMarkup(inEnglish(<EmojiText text="hi :parley_cat: and :parley_sun:!" verified={new Set(['parley_cat'])} />));
    expect(html).toContain('<img src="/emoji/parley_cat.svg" alt=":parley_cat:"');
    expect(html).toContain(':parley_sun:!');
    expect(html.match(/<img/g)).toHaveLength(1);
    expect(html).toContain('<bdi>hi </bdi><img');
  });

  it('never turns a message into markup, verified or not', () => {
    const text = '<img src=x onerror=alert(1)> :parley_cat:';
    const html = renderToStaticMarkup(inEnglish(<EmojiText text={text} verified={new Set(['parley_cat'])} />));
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(renderToStaticMarkup(inEnglish(<EmojiText text=":parley_cat:" verified={undefined} />))).toBe('<bdi>:parley_cat:</bdi>');
  });
});
