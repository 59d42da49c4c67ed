import { describe, expect, it } from 'vitest';
// zod first: the setting must reach a zod that was loaded before it was made, as happens when
// another module (or another test file in the same worker) imports zod earlier.
import { z } from 'zod';
import './zodConfig';

describe('zod on the page', () => {
  it('runs without its eval probe (the setting zodConfig makes is the one zod reads)', () => {
    expect(z.config().jitless).toBe(true);
    expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
  });
});
