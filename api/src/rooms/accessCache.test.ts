import { describe, expect, it } from 'vitest';
import type { Access } from './membership.ts';
import { accessCache } from './accessCache.ts';

const access = { room: { kind: 'group' }, member: { role: 'member' } } as unknown as Access;

function cache(random = 0) {
  let t = 1_000;
  const c = accessCache({ ttlMs: 30_000, max: 10, now: () => t, random: () => random });
  return { c, at: (ms: number) => (t = 1_000 + ms) };
}

describe('accessCache', () => {
  it('answers from the cache, asks for one refresh in the second half-life, and expires at the TTL', () => {
    const { c, at } = cache(0);
    c.set('r', 'u', access, c.generation);
    at(14_999);
    expect(c.get('r', 'u')).toEqual({ access, refresh: false });
    at(15_000);
    expect(c.get('r', 'u')).toEqual({ access, refresh: true });
    // Told once: the refresh is under way.
    expect(c.get('r', 'u')).toEqual({ access, refresh: false });
    at(30_000);
    expect(c.get('r', 'u')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('spreads refreshes over the second half-life, never past 90 % of it', () => {
    const { c, at } = cache(0.999);
    c.set('r', 'u', access, c.generation);
    at(26_000);
    expect(c.get('r', 'u')?.refresh).toBe(false);
    at(27_000);
    expect(c.get('r', 'u')?.refresh).toBe(true);
  });

  it('a refresh that answers restarts the entry; one read before a change is not kept', () => {
    const { c, at } = cache(0);
    c.set('r', 'u', access, c.generation);
    at(20_000);
    expect(c.get('r', 'u')?.refresh).toBe(true);
    const before = c.generation;
    c.set('r', 'u', access, before);
    at(34_000);
    expect(c.get('r', 'u')).toEqual({ access, refresh: false });

    const stale = c.generation;
    c.forgetRoom('r', 'u');
    c.set('r', 'u', access, stale);
    expect(c.get('r', 'u')).toBeUndefined();
  });

  it('forgets a user everywhere', () => {
    const { c } = cache();
    c.set('a', 'u', access, c.generation);
    c.set('b', 'u', access, c.generation);
    c.set('b', 'v', access, c.generation);
    c.forgetUsers(['u']);
    expect(c.get('a', 'u')).toBeUndefined();
    expect(c.get('b', 'u')).toBeUndefined();
    expect(c.get('b', 'v')?.access).toBe(access);
    expect(c.size).toBe(1);
  });
  it('drops an entry a fresh read refused without refusing reads under way', () => {
    const { c } = cache();
    const before = c.generation;
    c.set('r', 'u', access, before);
    c.drop('r', 'u');
    expect(c.get('r', 'u')).toBeUndefined();
    expect(c.size).toBe(0);
    c.set('r', 'v', access, before);
    expect(c.get('r', 'v')?.access).toBe(access);
  });
});
