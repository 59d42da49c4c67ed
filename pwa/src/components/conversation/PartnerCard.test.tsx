import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup as renderMarkup } from 'react-dom/server';
import { inEnglish } from '../../lib/i18n/testing';
import type { Receiver } from '@parley/contract/matchmaking';
import { PartnerCard } from './PartnerCard.tsx';

// Rendered as the app renders them: inside the i18n provider, here in English.
const renderToStaticMarkup = (node: Parameters<typeof renderMarkup>[0]) => renderMarkup(inEnglish(node));

const receiver: Receiver = { userId: 'u1', username: 'mira', avatar: '', age: 30, gender: 'female', sharedTopics: [] };

describe('PartnerCard names', () => {
  it('shows a premium partner’s colour and badge on the light card', () => {
    const html = renderToStaticMarkup(
      <PartnerCard receiver={receiver} noCommonTopic={false} nameStyle={{ badge: true, nameColour: 'teal' }} />,
    );
    expect(html).toContain('style="color:#0f766e"');
    expect(html).toContain('>Premium</span>');
  });

  it('keeps the badge but not the colour on the dark video bar, and shows a free partner plainly', () => {
    const bar = renderToStaticMarkup(
      <PartnerCard receiver={receiver} noCommonTopic={false} variant="bar" nameStyle={{ badge: true, nameColour: 'teal' }} />,
    );
    expect(bar).not.toContain('color:#0f766e');
    expect(bar).toContain('>Premium</span>');
    const plain = renderToStaticMarkup(
      <PartnerCard receiver={receiver} noCommonTopic={false} nameStyle={{ badge: false, nameColour: null }} />,
    );
    expect(plain).not.toContain('Premium');
    expect(plain).not.toContain('style="color');
  });
});
