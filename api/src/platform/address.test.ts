import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { addressKey, forwardedClient, ipv6Words, normaliseAddress } from './address.ts';

describe('the client address behind proxies', () => {
  it('takes the entry as many hops from the right as there are proxies', () => {
    const chain = '6.6.6.6, 203.0.113.7, 10.0.0.2';
    expect(forwardedClient('10.0.0.3', chain, 1)).toBe('10.0.0.2');
    expect(forwardedClient('10.0.0.3', chain, 2)).toBe('203.0.113.7');
    expect(forwardedClient('10.0.0.3', chain, 3)).toBe('6.6.6.6');
    // A client writing its own entries further left changes nothing.
    expect(forwardedClient('10.0.0.3', '1.1.1.1, 2.2.2.2, 203.0.113.7, 10.0.0.2', 2)).toBe('203.0.113.7');
  });

  it('ignores the header without proxies, and falls back to the connection when it holds no address', () => {
    expect(forwardedClient('198.51.100.4', '1.1.1.1', 0)).toBe('198.51.100.4');
    expect(forwardedClient('198.51.100.4', undefined, 1)).toBe('198.51.100.4');
    expect(forwardedClient('198.51.100.4', ' , ', 1)).toBe('198.51.100.4');
    expect(forwardedClient('198.51.100.4', '1.1.1.1, unknown', 1)).toBe('198.51.100.4');
    expect(forwardedClient('::ffff:127.0.0.1', undefined, 0)).toBe('127.0.0.1');
  });

  it('uses the leftmost entry when the chain is shorter than the proxies configured', () => {
    expect(forwardedClient('10.0.0.3', '203.0.113.7', 2)).toBe('203.0.113.7');
  });

  it('reads entries with ports, brackets and IPv4-mapped forms', () => {
    expect(forwardedClient('10.0.0.3', '203.0.113.7:51234', 1)).toBe('203.0.113.7');
    expect(forwardedClient('10.0.0.3', '[2001:DB8::1]:443', 1)).toBe('2001:db8::1');
    expect(forwardedClient('10.0.0.3', '::ffff:203.0.113.7', 1)).toBe('203.0.113.7');
    expect(normaliseAddress('fe80::1%eth0')).toBe('fe80::1');
    expect(normaliseAddress('not an address')).toBeUndefined();
  });

  it('TRUST_PROXY is a number of proxies; true and false mean 1 and 0', () => {
    const hops = (v?: string) => loadConfig(v === undefined ? {} : { TRUST_PROXY: v }).TRUST_PROXY;
    expect([hops(), hops('false'), hops('true'), hops('0'), hops('2')]).toEqual([0, 0, 1, 0, 2]);
    for (const bad of ['yes', '-1', '11', '1.5']) expect(() => hops(bad), bad).toThrow(/TRUST_PROXY/);
  });
});

describe('rate-limit keys of addresses', () => {
  it('keys an IPv6 address by its /64 and an IPv4 address by itself', () => {
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8:1:2::ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('expands every IPv6 form to its eight words', () => {
    expect(ipv6Words('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Words('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Words('2002:c0a8:101::1')).toEqual([0x2002, 0xc0a8, 0x101, 0, 0, 0, 0, 1]);
    expect(ipv6Words('::127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0, 0x7f00, 1]);
    expect(ipv6Words('64:ff9b::10.0.0.1')).toEqual([0x64, 0xff9b, 0, 0, 0, 0, 0x0a00, 1]);
    expect(ipv6Words('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Words('10.0.0.1')).toBeUndefined();
  });
});
