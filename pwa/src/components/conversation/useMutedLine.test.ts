import { describe, expect, it } from 'vitest';
import { english } from '../../lib/i18n/testing';
import { mutedLine as mutedLineIn } from './useMutedLine';

const mutedLine = (until: number | null, now: number) => mutedLineIn(until, now, english);

describe('the muted line', () => {
  const now = 1_000_000;
  it('counts whole minutes up, in hours past one', () => {
    expect(mutedLine(now + 57 * 60_000 + 1, now)).toMatch(/^Muted for 58 min\./);
    expect(mutedLine(now + 60 * 60_000, now)).toMatch(/^Muted for 60 min\./);
    expect(mutedLine(now + 125 * 60_000, now)).toMatch(/^Muted for 2 h 5 min\./);
    expect(mutedLine(now + 24 * 60 * 60_000, now)).toMatch(/^Muted for 24 h\./);
  });
  it('is gone once the mute has ended, or when there is none', () => {
    expect(mutedLine(now, now)).toBeNull();
    expect(mutedLine(null, now)).toBeNull();
  });
});
