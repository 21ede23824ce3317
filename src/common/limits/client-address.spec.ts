import { clientKeyOf } from './client-address';

describe('clientKeyOf: what the per-IP limits count a request under', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:10.0.0.7', '10.0.0.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:DB8:0:0:ffff::2', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['2001:db8:1::', '2001:db8:1:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    [undefined, 'unknown'],
  ])('%s → %s', (ip, key) => {
    expect(clientKeyOf(ip)).toBe(key);
  });

  it('counts two addresses of one /64 together, and of two /64 apart', () => {
    expect(clientKeyOf('2001:db8:a:b::1')).toBe(clientKeyOf('2001:db8:a:b:ffff:ffff:ffff:ffff'));
    expect(clientKeyOf('2001:db8:a:b::1')).not.toBe(clientKeyOf('2001:db8:a:c::1'));
  });
});
