import ipaddr from 'ipaddr.js';

/**
 * TRUST_PROXY as Fastify (proxy-addr) takes it. `true` trusts every hop, so a client behind a proxy
 * that appends to X-Forwarded-For can forge its address; a hop count or the proxies' addresses
 * trust only what is really in front of the server.
 */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's names for whole ranges. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const MAX_HOPS = 16;

/** Parses `false`, `true`, a hop count (`1`), or a comma list of addresses, CIDR ranges and range names. */
export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim();
  if (/^(false|0)$/i.test(text)) return false;
  if (/^true$/i.test(text)) return true;
  if (/^[0-9]+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) throw new Error(`a hop count must be 0 to ${MAX_HOPS}`);
    return hops;
  }
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const bad = entries.filter((e) => !RANGE_NAMES.includes(e) && !ipaddr.isValid(e) && !ipaddr.isValidCIDR(e));
  if (entries.length === 0 || bad.length > 0) {
    throw new Error(`must be true, false, a hop count, or a comma list of proxy addresses or CIDR ranges (not ${bad.join(', ') || 'empty'})`);
  }
  return entries;
}

/**
 * Fastify's own option for it. Fastify takes a bare number as "trust nothing" (it cannot check the
 * nearest peer), so a hop count becomes a function trusting that many hops from the socket: it is
 * only safe when the server cannot be reached except through those proxies.
 */
export function fastifyTrustProxy(setting: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}
