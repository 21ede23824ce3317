/**
 * What the per-IP limits count a request under: its IPv4 address (also when written
 * `::ffff:a.b.c.d`), or the /64 network of an IPv6 address (a subscriber holds a /64: 2^64
 * addresses to rotate through).
 */
export function clientKeyOf(ip: string | undefined): string {
  if (ip === undefined || ip === '') return 'unknown';
  if (!ip.includes(':')) return ip;
  const lower = ip.toLowerCase();
  if (lower.startsWith('::ffff:') && lower.includes('.')) return lower.slice('::ffff:'.length);
  return `${ipv6Network64(lower)}::/64`;
}

/** The first four groups of an IPv6 address, each without leading zeros (`2001:db8:0:1`). */
function ipv6Network64(ip: string): string {
  const zone = ip.indexOf('%');
  const address = zone < 0 ? ip : ip.slice(0, zone);
  const gap = address.indexOf('::');
  let groups: string[];
  if (gap < 0) {
    groups = address.split(':');
  } else {
    const head = address.slice(0, gap);
    const tail = address.slice(gap + 2);
    const left = head === '' ? [] : head.split(':');
    const right = tail === '' ? [] : tail.split(':');
    // An embedded IPv4 tail (`::1.2.3.4`) takes two groups; only the first four groups matter here.
    const rightCount = right.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
    groups = [
      ...left,
      ...Array<string>(Math.max(0, 8 - left.length - rightCount)).fill('0'),
      ...right,
    ];
  }
  return groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':');
}
