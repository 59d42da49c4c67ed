import { describe, expect, it } from 'vitest';
import './zodConfig';
import { z } from 'zod';

describe('zod on the page', () => {
  it('runs without its eval probe (the setting zodConfig makes is the one zod reads)', () => {
    expect(z.config().jitless).toBe(true);
    expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
  });
});
