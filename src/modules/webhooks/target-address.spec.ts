import { isPublicAddress } from './target-address';

describe('isPublicAddress', () => {
  it.each([
    // IPv4
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.10', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    // IPv6 of its own
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fd00::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'discard'],
    // IPv6 forms of an IPv4 address (issue 20, item 7)
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex'],
    ['::ffff:a00:1', 'IPv4-mapped private'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback, in hex'],
    ['::a00:1', 'IPv4-compatible private'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated, no host has one)'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback (SIIT)'],
    ['::ffff:0:808:808', 'IPv4-translated (never a destination)'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:7f00:1::1', '6to4 of loopback, a host'],
    ['2002:a00:1::1', '6to4 of a private address'],
    ['2002:c0a8:10a::', '6to4 of 192.168.1.10'],
    ['2002:a9fe:a9fe::1', '6to4 of the metadata address'],
    ['2002::', '6to4 of 0.0.0.0'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::a00:1', 'NAT64 of a private address'],
    ['64:ff9b::808:808', 'NAT64 (well-known prefix)'],
    ['64:ff9b:1::a00:1', 'local-use NAT64 (RFC 8215)'],
    ['64:ff9b:1:ffff::1', 'local-use NAT64, anywhere in it'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo (the client address is obfuscated)'],
    ['2001::1', 'Teredo'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['8.8.8.8', 'public IPv4'],
    ['1.1.1.1', 'public IPv4'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['2a00:1450:4007:80f::200e', 'public IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['::ffff:808:808', 'IPv4-mapped public, in hex'],
    ['2002:808:808::1', '6to4 of a public address'],
    ['2003::1', 'next to 6to4'],
    ['2001:4860:4860::8888', 'public, near Teredo'],
  ])('accepts %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(['', 'example.com', '127.1', '::g', '1.2.3.4.5'])(
    'refuses %j, which is no IP address',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );
});
