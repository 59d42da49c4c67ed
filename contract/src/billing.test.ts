import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NAME_COLOURS, NAME_SURFACES, PERKS, nameStyleOf, nameStyleRequestSchema, type Perks, type Tier } from './billing.ts';

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe('name colours', () => {
  it('reads at 4.5:1 or more on every surface a name is drawn on', () => {
    for (const [name, hex] of Object.entries(NAME_COLOURS))
      for (const surface of NAME_SURFACES)
        expect({ name, surface, ok: contrast(hex, surface) >= 4.5 }).toEqual({ name, surface, ok: true });
  });

  it('shows a colour and badge only while premium', () => {
    expect(nameStyleOf('plus', 'teal')).toEqual({ badge: true, nameColour: 'teal' });
    expect(nameStyleOf('pro', null)).toEqual({ badge: true, nameColour: null });
    expect(nameStyleOf('free tier', 'teal')).toEqual({ badge: false, nameColour: null });
    expect(nameStyleOf('plus', 'toString')).toEqual({ badge: true, nameColour: null });
  });

  it('accepts only palette colours or null', () => {
    expect(nameStyleRequestSchema.safeParse({ nameColour: 'ocean' }).success).toBe(true);
    expect(nameStyleRequestSchema.safeParse({ nameColour: null }).success).toBe(true);
    expect(nameStyleRequestSchema.safeParse({ nameColour: '#ff0000' }).success).toBe(false);
    expect(nameStyleRequestSchema.safeParse({ nameColour: 'ocean', extra: 1 }).success).toBe(false);
  });
});

describe('the perk table in docs/billing.md', () => {
  const span = (h: number) => (h % 24 === 0 && h > 24 ? `${h / 24} days` : `${h} hours`);
  const yes = (b: boolean) => (b ? 'yes' : '–');
  const ROWS: Array<[string, (p: Perks) => string]> = [
    ['Premium badge and a chosen name colour', (p) => yes(p.badge)],
    ['Past chat partners to send friend requests to', (p) => `${p.recentPartners} / ${span(p.recentPartnerHours)}`],
    ['Group rooms owned / people per room', (p) => `${p.ownedGroupRooms} / ${p.groupRoomCapacity}`],
    ['Gold with every paid month', (p) => (p.monthlyGold > 0 ? `${p.monthlyGold}` : '–')],
    ['Streak freezes held', (p) => `${p.streakFreezes}`],
    ['Upload custom emoji', (p) => yes(p.customEmojiUpload)],
  ];

  it('says what the server enforces, tier by tier', () => {
    const doc = readFileSync(new URL('../../docs/billing.md', import.meta.url), 'utf8');
    const table = doc
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| -'))
      .map((l) =>
        l
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    const tiers: Tier[] = ['free tier', 'plus', 'pro'];
    for (const [label, cell] of ROWS) expect(table).toContainEqual([label, ...tiers.map((t) => cell(PERKS[t]))]);
  });
});
