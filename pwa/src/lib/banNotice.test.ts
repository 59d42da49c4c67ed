import { describe, expect, it } from 'vitest';
import { banNotice } from '@parley/contract/safety';
import { clearBanNotice, hasBanNotice, isBanNotice, peekBanNotice, rememberBanNotice } from './banNotice';

describe('the ban notice a socket hears', () => {
  it('accepts what the server sends, and nothing that would send the page elsewhere', () => {
    const notice = banNotice({ until: null, rule: 'hate' });
    expect(isBanNotice(notice)).toBe(true);
    expect(notice.message).toMatch(/appeal once/);
    expect(isBanNotice({ ...notice, appealPath: '//evil.example/appeal' })).toBe(false);
    expect(isBanNotice({ ...notice, appealPath: 'https://evil.example' })).toBe(false);
    expect(isBanNotice(null)).toBe(false);
    expect(isBanNotice({ message: 1 })).toBe(false);
  });

  it('waits for the sign-in screen, which reads it (twice alike) and clears it', () => {
    const notice = banNotice({ until: new Date('2030-01-01T00:00:00Z'), rule: 'spam' });
    rememberBanNotice(notice);
    expect(hasBanNotice()).toBe(true);
    expect(peekBanNotice()).toBe(notice);
    expect(peekBanNotice()).toBe(notice);
    clearBanNotice();
    expect(hasBanNotice()).toBe(false);
  });
});
