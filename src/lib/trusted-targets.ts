import ipaddr from 'ipaddr.js';

/**
 * PRIVATE_TARGETS_ALLOW (operations.md, fourth wave): the private destinations the owner trusts for
 * webhooks and notification channels, such as a LAN ntfy server. Addresses and CIDR ranges are
 * matched against every address a connection is about to use (the pinned lookup), whatever name led
 * there. A trusted host name may resolve to LAN addresses (private, unique-local, carrier-grade NAT:
 * DHCP moves them); loopback, link-local (cloud metadata lives there) and the other special ranges
 * stay closed unless the address itself is listed.
 */
export interface TrustedTargets {
  readonly names: ReadonlySet<string>;
  readonly ranges: readonly (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[];
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** IPv4-mapped IPv6 judged as the IPv4 address it carries, as the destination rules judge it. */
function plain(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

/** Reads the comma list; throws with a message naming the first entry that is none of the three. */
export function parseTrustedTargets(text: string): TrustedTargets {
  const names = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of text.split(',').map((e) => e.trim().toLowerCase().replace(/\.+$/, ''))) {
    if (entry === '') continue;
    const bare = entry.replace(/^\[(.*)\]$/, '$1');
    if (ipaddr.isValid(bare)) {
      const address = plain(ipaddr.parse(bare));
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (entry.includes('/')) {
      try {
        const [range, bits] = ipaddr.parseCIDR(entry);
        ranges.push([range, bits]);
      } catch {
        throw new Error(`has an entry that is not a CIDR range: ${entry}`);
      }
    } else if (HOST_NAME.test(entry)) {
      names.add(entry);
    } else {
      throw new Error(`has an entry that is neither a host name, an IP address nor a CIDR range: ${entry}`);
    }
  }
  return Object.freeze({ names, ranges });
}

/** Whether a literal address is inside a trusted address or range. */
export function isTrustedAddress(text: string, trusted: TrustedTargets): boolean {
  if (trusted.ranges.length === 0 || !ipaddr.isValid(text)) return false;
  const address = plain(ipaddr.parse(text));
  return trusted.ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/** Whether a URL's host (bare, lower-case, no trailing dot) is trusted by name or as an address. */
export function isTrustedHost(host: string, trusted: TrustedTargets): boolean {
  return trusted.names.has(host.toLowerCase().replace(/\.+$/, '')) || isTrustedAddress(host, trusted);
}

const LAN_RANGES = new Set(['private', 'uniqueLocal', 'carrierGradeNat']);

/** Whether a non-public address a host resolved to may be connected to all the same. */
export function trustedResolution(host: string, address: string, trusted: TrustedTargets): boolean {
  if (isTrustedAddress(address, trusted)) return true;
  if (!trusted.names.has(host.toLowerCase().replace(/\.+$/, '')) || !ipaddr.isValid(address)) return false;
  return LAN_RANGES.has(plain(ipaddr.parse(address)).range());
}
