import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { inEnglish } from '../../lib/i18n/testing';
import { RevealedText } from './RevealedText.tsx';

describe('RevealedText', () => {
  it('shows a bidi override as a visible code inside an isolate, and plain text as it is', () => {
    const html = renderToStaticMarkup(inEnglish(<RevealedText text={'invoice\u202Efdp.exe'} />));
    expect(html).toBe(
      '<bdi>invoice<abbr title="Hidden character" class="mx-0.5 rounded bg-amber-100 px-1 font-mono text-xs text-amber-900 no-underline">U+202E</abbr>fdp.exe</bdi>',
    );
    expect(html).not.toContain('\u202E');
    expect(renderToStaticMarkup(inEnglish(<RevealedText text="hello" />))).toBe('<bdi>hello</bdi>');
  });
});
