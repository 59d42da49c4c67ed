import { describe, expect, it } from 'vitest';
import { countryOfAddress } from './geo.ts';

describe('countryOfAddress', () => {
  it('finds the country of public addresses in the shipped database', () => {
    expect(countryOfAddress('8.8.8.8')).toBe('US');
    expect(countryOfAddress('::ffff:8.8.8.8')).toBe('US');
    expect(countryOfAddress('2001:4860:4860::8888')).toBe('US');
    expect(countryOfAddress('193.0.6.139')).toBe('NL'); // RIPE NCC, Amsterdam
  });

  it('gives no country for loopback, private and malformed addresses', () => {
    for (const a of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '10.1.2.3',
      '192.168.0.10',
      '172.20.0.1',
      'fd00::1',
      'fe80::1',
      'nope',
      '',
      undefined,
    ]) {
      expect(countryOfAddress(a)).toBeNull();
    }
  });
});
