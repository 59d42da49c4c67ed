import { describe, expect, it } from 'vitest';
import { LINK_PARTNERS, LINK_WINDOW_MS, linkSpamGuard, linksOf } from './linkSpam.ts';

describe('the same link sent to stranger after stranger', () => {
  it('finds links however they are written', () => {
    expect(linksOf('see https://WWW.Example.com/offer/ now')).toEqual(['example.com/offer']);
    expect(linksOf('example.com/offer and www.example.com/offer')).toEqual(['example.com/offer']);
    expect(linksOf('no links here, just words.')).toEqual([]);
  });

  it('is refused after LINK_PARTNERS rooms an hour; talking about it in one room is not limited', () => {
    let t = 0;
    const guard = linkSpamGuard(() => t);
    for (let i = 0; i < 20; i++) expect(guard.allow('u', 'room0', 'look at cheap.example/deal')).toBe(true);
    for (let r = 1; r < LINK_PARTNERS; r++) expect(guard.allow('u', `room${r}`, 'cheap.example/deal')).toBe(true);
    expect(guard.allow('u', 'roomX', 'https://cheap.example/deal')).toBe(false);
    expect(guard.allow('u', 'roomX', 'hello without a link')).toBe(true);
    expect(guard.allow('other', 'roomX', 'cheap.example/deal')).toBe(true);
    t += LINK_WINDOW_MS + 1;
    expect(guard.allow('u', 'roomX', 'cheap.example/deal')).toBe(true);
  });
});
