import { describe, expect, it } from 'vitest';
import reducer, { defaultChatFilters, searchPreferencesActions as a } from './searchPreferences';

describe('search preferences', () => {
  it('start from everyone of any age, without automatic reconnect, and reset the filters alone', () => {
    const fresh = reducer(undefined, { type: '@@init' });
    expect(fresh).toEqual({ chatFilters: defaultChatFilters, automaticReconnect: false, nudityGuard: true });
    const filters = { topics: ['chess'], gender: 'female' as const, ageRange: { minAge: 20, maxAge: 30 } };
    const changed = [a.setChatFilters(filters), a.setAutomaticReconnect(true)].reduce(reducer, fresh);
    expect(changed).toEqual({ chatFilters: filters, automaticReconnect: true, nudityGuard: true });
    expect(reducer(changed, a.resetChatFilters())).toEqual({
      chatFilters: defaultChatFilters,
      automaticReconnect: true,
      nudityGuard: true,
    });
  });

  it('check the partner’s video for nudity unless the user turns it off', () => {
    const off = reducer(undefined, a.setNudityGuard(false));
    expect(off.nudityGuard).toBe(false);
    expect(reducer(off, a.setNudityGuard(true)).nudityGuard).toBe(true);
  });
});
