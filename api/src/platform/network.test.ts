import { describe, expect, it } from 'vitest';
import { addressKey as networkOf, publicNetworkOf } from './address.ts';

describe('the network of an address (addressKey)', () => {
  it('keeps an IPv4 address whole, also when written as IPv4-mapped IPv6', () => {
    expect(networkOf('192.0.2.7')).toBe('192.0.2.7');
    expect(networkOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(networkOf('::FFFF:192.0.2.7')).toBe('192.0.2.7');
  });

  it('reduces IPv6 to its /64, however it is written', () => {
    const net = '2001:db8:1:2::/64';
    expect(networkOf('2001:db8:1:2::1')).toBe(net);
    expect(networkOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(net);
    expect(networkOf('2001:DB8:1:2:abcd::9')).toBe(net);
    expect(networkOf('[2001:db8:1:2::5]')).toBe(net);
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(networkOf('2001:db8:1:3::1')).not.toBe(net);
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('2001:db8::192.0.2.1')).toBe('2001:db8:0:0::/64');
  });

  it('returns anything else unchanged', () => {
    expect(networkOf('not an address')).toBe('not an address');
  });

  it('links nobody by a loopback, private or link-local address (a proxy, or a local network)', () => {
    for (const a of ['127.0.0.1', '::1', '10.1.2.3', '172.20.0.1', '192.168.1.9', '::ffff:10.0.0.1', 'fd00::1', 'fe80::1', 'x'])
      expect(publicNetworkOf(a)).toBeUndefined();
    expect(publicNetworkOf('203.0.113.5')).toBe('203.0.113.5');
    expect(publicNetworkOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
  });
});
