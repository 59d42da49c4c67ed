import { describe, expect, it } from 'vitest';
import { createSearchTicket, newSearchId } from './searchTicket';

describe('search ticket', () => {
  it('owns only the answers to the search under way', () => {
    const t = createSearchTicket();
    expect(t.owns(undefined)).toBe(false);
    const first = newSearchId();
    t.begin(first);
    expect(t.owns(first)).toBe(true);
    expect(t.owns(undefined)).toBe(true);
    t.end();
    expect(t.owns(first)).toBe(false);
    const second = newSearchId();
    t.begin(second);
    expect(second).not.toBe(first);
    expect(t.owns(first)).toBe(false);
    expect(t.owns(second)).toBe(true);
  });

  it('two pages (text and video) keep their own searches', () => {
    const text = createSearchTicket();
    const video = createSearchTicket();
    const id = newSearchId();
    text.begin(id);
    expect(video.owns(id)).toBe(false);
  });
});
