import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent } from 'undici';
import { isTrustedAddress, trustedResolution } from '../../../lib/trusted-targets.js';
import { bareHost, checkWebhookUrl, classifyAddress, DestinationRuleError, type DestinationPolicy } from './destination-rules.js';

/** Answers every address of a host name. Injected so tests decide what names mean and never use real DNS. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type FailureReason = 'http_status' | 'redirect' | 'timeout' | 'network_error' | 'blocked_destination';

export type AttemptOutcome =
  | { kind: 'succeeded'; status: number }
  | { kind: 'failed'; status: number; reason: FailureReason; detail: string }
  /** Stopped from outside (shutdown) before an answer: no outcome to record. */
  | { kind: 'interrupted' };

export interface OutgoingDelivery {
  url: string;
  headers: Record<string, string>;
  /** A webhook's JSON; a web push's encrypted bytes. */
  body: string | Buffer;
}

export interface DeliveryTransport {
  send(delivery: OutgoingDelivery, stop?: AbortSignal): Promise<AttemptOutcome>;
  close(): Promise<void>;
}

export interface TransportOptions extends DestinationPolicy {
  resolver: Resolver;
  timeoutMs: number;
  /** Extra trusted CA certificates (PEM), added to Node's defaults; tests trust their own CA this way. */
  ca?: string[];
}

/** Response bodies are read this far and discarded: enough to let a small answer finish cleanly. */
const MAX_RESPONSE_BYTES = 4096;

class BlockedDestinationError extends Error {
  override readonly name = 'BlockedDestinationError';
}

const TIMEOUT = Symbol('timeout');
const INTERRUPTED = Symbol('interrupted');

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < 8; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

const explain = (error: unknown): string =>
  causes(error)
    .map((e) => (e instanceof Error ? `${(e as NodeJS.ErrnoException).code ?? e.name}: ${e.message}` : String(e)))
    .join(' <- ');

/**
 * Resolves a name, refuses it when any address is not public (unless private targets are allowed),
 * and hands exactly the checked addresses to the socket: the connection is pinned to what was
 * checked, so a DNS answer that changes between check and connect (rebinding) cannot get through.
 */
function pinnedLookup(resolver: Resolver, policy: DestinationPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const checked = async (): Promise<LookupAddress[]> => {
      const host = hostname.replace(/^\[|\]$/g, '');
      const found = ipaddr.isValid(host) ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }] : await resolver(host);
      const wanted = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
      if (wanted.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
      if (!policy.allowPrivateTargets) {
        for (const { address } of wanted) {
          const verdict = classifyAddress(address);
          if (verdict.blocked && !(policy.trustedTargets && trustedResolution(host, address, policy.trustedTargets))) {
            throw new BlockedDestinationError(`${host} resolves to a ${verdict.range} address`);
          }
        }
      }
      return wanted;
    };
    checked().then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

/**
 * One attempt = one POST with a hard deadline covering DNS, connect, TLS and the answer. Redirects
 * are never followed (undici's request does not follow them): a 3xx is a failure.
 */
export function createDeliveryTransport(options: TransportOptions): DeliveryTransport {
  // undici is loaded with the first delivery: most processes start long before one, or never send any.
  let client: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  const undici = () =>
    (client ??= import('undici').then(({ default: { Agent, request } }) => ({
      request,
      agent: new Agent({
        connect: {
          lookup: pinnedLookup(options.resolver, options),
          timeout: options.timeoutMs,
          ...(options.ca ? { ca: options.ca } : {}),
        },
        keepAliveTimeout: 4_000,
      }),
    })));

  async function send(delivery: OutgoingDelivery, stop?: AbortSignal): Promise<AttemptOutcome> {
    let url: URL;
    try {
      url = checkWebhookUrl(delivery.url, options);
    } catch (error) {
      if (error instanceof DestinationRuleError) return { kind: 'failed', status: 0, reason: 'blocked_destination', detail: error.message };
      throw error;
    }
    // An IP literal never reaches the lookup, so its check happens here, before any connection.
    const host = bareHost(url);
    if (!options.allowPrivateTargets && ipaddr.isValid(host) && !(options.trustedTargets && isTrustedAddress(host, options.trustedTargets))) {
      const verdict = classifyAddress(host);
      if (verdict.blocked) return { kind: 'failed', status: 0, reason: 'blocked_destination', detail: `${host} is a ${verdict.range} address` };
    }

    const { agent, request } = await undici();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMEOUT), options.timeoutMs);
    const onStop = () => controller.abort(INTERRUPTED);
    if (stop?.aborted) onStop();
    stop?.addEventListener('abort', onStop, { once: true });
    try {
      const response = await request(url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        dispatcher: agent,
        signal: controller.signal,
      });
      const status = response.statusCode;
      await response.body.dump({ limit: MAX_RESPONSE_BYTES, signal: controller.signal }).catch(() => undefined);
      if (status >= 200 && status < 300) return { kind: 'succeeded', status };
      if (status >= 300 && status < 400) return { kind: 'failed', status, reason: 'redirect', detail: `answered ${status} (redirects are not followed)` };
      return { kind: 'failed', status, reason: 'http_status', detail: `answered ${status}` };
    } catch (error) {
      if (controller.signal.reason === INTERRUPTED) return { kind: 'interrupted' };
      if (controller.signal.reason === TIMEOUT) return { kind: 'failed', status: 0, reason: 'timeout', detail: `no answer within ${options.timeoutMs} ms` };
      if (causes(error).some((e) => e instanceof BlockedDestinationError)) {
        return { kind: 'failed', status: 0, reason: 'blocked_destination', detail: explain(error) };
      }
      return { kind: 'failed', status: 0, reason: 'network_error', detail: explain(error) };
    } finally {
      clearTimeout(timer);
      stop?.removeEventListener('abort', onStop);
    }
  }

  return { send, close: async () => (client ? (await client).agent.close() : undefined) };
}
