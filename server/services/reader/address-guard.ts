import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses the reader may connect to: public unicast only. Everything an attacker could
 * use to reach our own network through a "read this page" request (loopback, private ranges, cloud
 * metadata services, link-local, special-purpose and unallocated space) is refused.
 *
 * Ranges are matched with Node's `net.BlockList` rather than hand-written bit maths. IPv6 forms that
 * carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that IPv4 address, because
 * that is where a connection to them ends up.
 */

type Family = 'ipv4' | 'ipv6';

/** One BlockList per reason; the first list (in declaration order) that matches names the reason. */
function rules(family: Family, table: readonly (readonly [reason: string, cidrs: readonly string[]])[]) {
  return table.map(([reason, cidrs]) => {
    const list = new BlockList();
    for (const cidr of cidrs) {
      const [network, prefix] = cidr.split('/');
      if (prefix === undefined) list.addAddress(network, family);
      else list.addSubnet(network, Number(prefix), family);
    }
    return { reason, list };
  });
}

const IPV4_RULES = rules('ipv4', [
  // Cloud instance metadata: AWS/GCP/Azure/OpenStack, Alibaba (inside CGNAT space), and Azure's
  // WireServer (a public address that only means something from inside Azure, where it serves
  // platform secrets). Listed first so they are reported by name.
  ['metadata', ['169.254.169.254', '100.100.100.200', '168.63.129.16']],
  ['broadcast', ['255.255.255.255']],
  ['unspecified', ['0.0.0.0/8']], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['loopback', ['127.0.0.0/8']],
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']],
  ['cgnat', ['100.64.0.0/10']],
  ['link-local', ['169.254.0.0/16']],
  ['documentation', ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24']],
  ['benchmarking', ['198.18.0.0/15']],
  // IETF protocol assignments, the deprecated 6to4 relay anycast, and the old class E.
  ['reserved', ['192.0.0.0/24', '192.88.99.0/24', '240.0.0.0/4']],
  ['multicast', ['224.0.0.0/4']],
]);

const IPV6_RULES = rules('ipv6', [
  ['unspecified', ['::/128']],
  ['loopback', ['::1/128']],
  ['metadata', ['fd00:ec2::254/128']], // AWS IMDS over IPv6 (inside fc00::/7 anyway)
  ['unique-local', ['fc00::/7']],
  ['link-local', ['fe80::/10']],
  ['site-local', ['fec0::/10']], // deprecated, but still private wherever it is used
  ['multicast', ['ff00::/8']],
  ['documentation', ['2001:db8::/32', '3fff::/20']],
  ['benchmarking', ['2001:2::/48']],
  // Teredo tunnels to an (obfuscated) IPv4 address we cannot vouch for.
  ['teredo', ['2001::/32']],
  // Discard-only, IETF protocol assignments (ORCHID, AMT, AS112 ... none of them web servers),
  // and SRv6 segment identifiers.
  ['reserved', ['100::/64', '2001::/23', '5f00::/16']],
]);

/** Everything outside 2000::/3 is either special-purpose or not allocated for unicast at all. */
const GLOBAL_UNICAST_V6 = rules('ipv6', [['global', ['2000::/3']]])[0].list;

/**
 * IPv6 prefixes whose addresses embed an IPv4 address, with the byte offsets of that address
 * (RFC 4291 mapped/compatible, RFC 6052 NAT64, RFC 3056 6to4). The local-use NAT64 prefix
 * 64:ff9b:1::/48 may be deployed with any prefix length of 48 or more, so every position RFC 6052
 * allows for those lengths is checked; any blocked candidate blocks the address.
 */
const EMBEDDED_IPV4 = [
  { prefix: '::ffff:0:0', length: 96, positions: [[12, 13, 14, 15]] },
  { prefix: '::', length: 96, positions: [[12, 13, 14, 15]] },
  { prefix: '64:ff9b::', length: 96, positions: [[12, 13, 14, 15]] },
  {
    prefix: '64:ff9b:1::',
    length: 48,
    // Byte 8 (bits 64-71) is the reserved "u" octet RFC 6052 skips.
    positions: [
      [6, 7, 9, 10],
      [7, 9, 10, 11],
      [9, 10, 11, 12],
      [12, 13, 14, 15],
    ],
  },
  { prefix: '2002::', length: 16, positions: [[2, 3, 4, 5]] },
].map(({ prefix, length, positions }) => {
  const list = new BlockList();
  list.addSubnet(prefix, length, 'ipv6');
  return { list, positions };
});

/**
 * Why `address` (a literal IPv4 or IPv6 address, brackets and zone id allowed) must not be
 * connected to, or null when it is a public unicast address.
 */
export function blockedReason(address: string): string | null {
  let ip = address.trim();
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  // A zone id ("fe80::1%eth0") makes BlockList.check answer false for everything: drop it.
  const zone = ip.indexOf('%');
  if (zone !== -1) ip = ip.slice(0, zone);

  if (isIPv4(ip)) return firstMatch(IPV4_RULES, ip, 'ipv4');
  if (!isIPv6(ip)) return 'invalid';

  // ::/128 and ::1/128 sit inside the IPv4-compatible range; name them for what they are.
  const special = firstMatch(IPV6_RULES.slice(0, 2), ip, 'ipv6');
  if (special) return special;

  const embedded = EMBEDDED_IPV4.filter((e) => e.list.check(ip, 'ipv6'));
  if (embedded.length > 0) {
    const bytes = ipv6Bytes(ip);
    if (!bytes) return 'invalid';
    for (const { positions } of embedded) {
      for (const position of positions) {
        const reason = blockedReason(position.map((i) => bytes[i]).join('.'));
        if (reason) return reason;
      }
    }
    return null;
  }

  return firstMatch(IPV6_RULES, ip, 'ipv6') ?? (GLOBAL_UNICAST_V6.check(ip, 'ipv6') ? null : 'reserved');
}

function firstMatch(table: readonly { reason: string; list: BlockList }[], ip: string, family: Family) {
  return table.find((r) => r.list.check(ip, family))?.reason ?? null;
}

/** The 16 bytes of an address that `net.isIPv6` accepted (no zone id), or null if it will not parse. */
function ipv6Bytes(ip: string): number[] | null {
  let text = ip;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return null;
    const [a, b, c, d] = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${(a * 256 + b).toString(16)}:${(c * 256 + d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groupsOf(halves[0]);
  const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.flatMap((g) => {
    const value = parseInt(g, 16);
    return [Math.floor(value / 256), value % 256];
  });
}
