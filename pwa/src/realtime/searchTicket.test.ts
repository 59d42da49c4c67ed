import { describe, expect, it } from 'vitest';
import { createSearchTicket } from './searchTicket';

describe('search ticket', () => {
  it('owns only the answers to the search under way', () => {
    const t = createSearchTicket();
    expect(t.owns(undefined)).toBe(false);
    const first = t.newId();
    t.begin(first);
    expect(t.owns(first)).toBe(true);
    expect(t.owns(undefined)).toBe(true);
    t.end();
    expect(t.owns(first)).toBe(false);
    const second = t.newId();
    t.begin(second);
    expect(second).not.toBe(first);
    expect(t.owns(first)).toBe(false);
    expect(t.owns(second)).toBe(true);
  });

  it('two pages (text and video) keep their own searches', () => {
    const text = createSearchTicket();
    const video = createSearchTicket();
    const id = text.newId();
    text.begin(id);
    expect(video.owns(id)).toBe(false);
    // Ids of two tickets never collide, even made in the same millisecond.
    expect(video.newId()).not.toBe(text.newId());
  });
});
