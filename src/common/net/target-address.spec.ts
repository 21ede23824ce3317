import { isPublicAddress } from './target-address';

describe('isPublicAddress', () => {
  it.each([
    // IPv4
    ['127.0.0.1', 'loopback', false],
    ['10.1.2.3', 'private', false],
    ['172.16.0.1', 'private', false],
    ['192.168.1.10', 'private', false],
    ['169.254.169.254', 'link-local (cloud metadata)', false],
    ['100.64.0.1', 'carrier-grade NAT', false],
    ['0.0.0.0', 'this network', false],
    ['224.0.0.1', 'multicast', false],
    ['255.255.255.255', 'broadcast', false],
    // IPv6 of its own
    ['::', 'unspecified', false],
    ['::1', 'loopback', false],
    ['fd00::1', 'unique local', false],
    ['fe80::1', 'link-local', false],
    ['ff02::1', 'multicast', false],
    ['2001:db8::1', 'documentation', false],
    ['100::1', 'discard', false],
    // IPv6 forms of an IPv4 address (issue 20, item 7)
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback', false],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex', false],
    ['::ffff:a00:1', 'IPv4-mapped private', false],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local', false],
    ['::127.0.0.1', 'IPv4-compatible loopback', false],
    ['::7f00:1', 'IPv4-compatible loopback, in hex', false],
    ['::a00:1', 'IPv4-compatible private', false],
    ['::8.8.8.8', 'IPv4-compatible (deprecated, no host has one)', false],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback (SIIT)', false],
    ['::ffff:0:808:808', 'IPv4-translated (never a destination)', false],
    ['2002:7f00:1::', '6to4 of loopback', false],
    ['2002:7f00:1::1', '6to4 of loopback, a host', false],
    ['2002:a00:1::1', '6to4 of a private address', false],
    ['2002:c0a8:10a::', '6to4 of 192.168.1.10', false],
    ['2002:a9fe:a9fe::1', '6to4 of the metadata address', false],
    ['2002::', '6to4 of 0.0.0.0', false],
    ['64:ff9b::7f00:1', 'NAT64 of loopback', false],
    ['64:ff9b::a00:1', 'NAT64 of a private address', false],
    ['64:ff9b::808:808', 'NAT64 (well-known prefix)', false],
    ['64:ff9b:1::a00:1', 'local-use NAT64 (RFC 8215)', false],
    ['64:ff9b:1:ffff::1', 'local-use NAT64, anywhere in it', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo (the client address is obfuscated)', false],
    ['2001::1', 'Teredo', false],
    // Public
    ['8.8.8.8', 'public IPv4', true],
    ['1.1.1.1', 'public IPv4', true],
    ['2606:4700:4700::1111', 'public IPv6', true],
    ['2a00:1450:4007:80f::200e', 'public IPv6', true],
    ['::ffff:8.8.8.8', 'IPv4-mapped public', true],
    ['::ffff:808:808', 'IPv4-mapped public, in hex', true],
    ['2002:808:808::1', '6to4 of a public address', true],
    ['2003::1', 'next to 6to4', true],
    ['2001:4860:4860::8888', 'public, near Teredo', true],
  ])('%s (%s): public %s', (address, _, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it.each(['', 'example.com', '127.1', '::g', '1.2.3.4.5'])(
    'refuses %j, which is no IP address',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );
});
