import { BlockList, isIP } from 'node:net';

/**
 * IPv4 networks never reached unless private targets are allowed: loopback, private, link-local
 * (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast, documentation, reserved.
 */
const NON_PUBLIC_IPV4: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/**
 * IPv6 networks refused whole: those of no public host, and those whose embedded IPv4 address is
 * reached in a way no check here follows (a translator, a tunnel's obfuscated client address).
 */
const NON_PUBLIC_IPV6: readonly [string, number][] = [
  // IPv4-compatible (deprecated, RFC 4291 §2.5.5.1; `::127.0.0.1`), :: and ::1 among them.
  ['::', 96],
  // IPv4-translated (SIIT, RFC 2765), never a destination.
  ['::ffff:0:0:0', 96],
  // NAT64: the well-known prefix (RFC 6052) and the local-use one (RFC 8215).
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // IETF protocol assignments, Teredo (2001::/32, RFC 4380) among them.
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

/** `10.0.0.0` → `a00:0`: an IPv4 address as the two 16-bit groups IPv6 writes it in. */
function asGroups(ipv4: string): string {
  const [a, b, c, d] = ipv4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * Every non-public address, with the IPv4 networks above also as IPv4-mapped (`::ffff:127.0.0.1`)
 * and 6to4 (`2002:7f00:1::`) addresses. ISATAP identifiers (`…:5efe:a.b.c.d`) are left: their
 * prefix, not the IPv4 address in them, decides where a packet goes.
 */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of NON_PUBLIC_IPV4) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
  NON_PUBLIC.addSubnet(`::ffff:${asGroups(network)}`, 96 + prefix, 'ipv6');
  NON_PUBLIC.addSubnet(`2002:${asGroups(network)}::`, 16 + prefix, 'ipv6');
}
for (const [network, prefix] of NON_PUBLIC_IPV6) NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** Whether `address` (an IP literal) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
