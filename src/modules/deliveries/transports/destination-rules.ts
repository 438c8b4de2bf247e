import ipaddr from 'ipaddr.js';
import { isTrustedHost, type TrustedTargets } from '../../../lib/trusted-targets.js';

/*
 * Where a webhook may point. Registration checks the URL text (no DNS); delivery checks it again
 * and then every address the host resolves to. "Public" means a global unicast address: every
 * special range ipaddr.js knows (loopback, private, CGNAT, link-local, unspecified, multicast,
 * broadcast, reserved, unique-local, …) is refused, IPv4-mapped IPv6 is judged as the IPv4 address
 * it carries, and IPv6 outside 2000::/3 or in a translation/tunnel prefix (NAT64, 6to4, Teredo,
 * SIIT) is refused outright, since it can hide any IPv4 address.
 */

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  '6to4': '6to4',
  teredo: 'Teredo',
};

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

export type AddressVerdict = { blocked: false } | { blocked: true; range: string };

/** Whether a literal IPv4/IPv6 address may be connected to (anything but public unicast is blocked). */
export function classifyAddress(text: string): AddressVerdict {
  if (!ipaddr.isValid(text)) return { blocked: true, range: 'unparseable' };
  let address = ipaddr.parse(text);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  const range = address.range();
  if (range !== 'unicast') return { blocked: true, range: RANGE_WORDS[range] ?? range };
  if (address.kind() === 'ipv6' && !address.match(GLOBAL_UNICAST_V6)) return { blocked: true, range: 'non-global IPv6' };
  return { blocked: false };
}

/** What may be reached besides public https: everything (testing only), or the owner's trusted targets. */
export interface DestinationPolicy {
  allowPrivateTargets: boolean;
  trustedTargets?: TrustedTargets;
}

export class DestinationRuleError extends Error {
  override readonly name = 'DestinationRuleError';
}

/** The host without IPv6 brackets and without the trailing dots DNS allows ("foo.internal." is foo.internal). */
export function bareHost(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') ? host.slice(1, -1) : host.replace(/\.+$/, '');
}

/**
 * The URL rules of the spec and the contract, on the text only. Node's WHATWG parser has already
 * turned every IPv4 notation it accepts (decimal, octal, hex, short forms) into a dotted quad and
 * IPv6 into its canonical form, so one check covers all spellings. `allowPrivateTargets` lifts only
 * the address rule; https, credentials and the name rules always hold. A trusted target
 * (PRIVATE_TARGETS_ALLOW) may be private, use plain http and any name; its addresses are checked at
 * connect. Throws DestinationRuleError with a message naming the rule.
 */
export function checkWebhookUrl(input: string, options: DestinationPolicy): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new DestinationRuleError('url must be an absolute https:// URL');
  }
  if (url.username !== '' || url.password !== '') throw new DestinationRuleError('url must not contain credentials (user:password@)');
  const host = bareHost(url).toLowerCase();
  const trusted = options.trustedTargets !== undefined && host !== '' && isTrustedHost(host, options.trustedTargets);
  if (url.protocol !== 'https:' && !(trusted && url.protocol === 'http:')) {
    throw new DestinationRuleError(`url must use https (got ${url.protocol.replace(/:$/, '')})`);
  }
  if (host === '') throw new DestinationRuleError('url must name a host');
  if (trusted) return url;
  if (ipaddr.isValid(host)) {
    if (options.allowPrivateTargets) return url;
    const verdict = classifyAddress(host);
    if (verdict.blocked) throw new DestinationRuleError(`url must point at a public address, not a ${verdict.range} one (${host})`);
    return url;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) throw new DestinationRuleError('url must not point at localhost');
  if (host.endsWith('.local')) throw new DestinationRuleError('url must not use a .local host name');
  if (host.endsWith('.internal')) throw new DestinationRuleError('url must not use a .internal host name');
  // A single-label name is resolved through the server's search domains, i.e. inside its network.
  if (!host.includes('.')) throw new DestinationRuleError('url must use a fully qualified public host name');
  return url;
}
