import type { Redis } from 'ioredis';
import type { ConsumeResult, CounterSpec, CounterStore } from './counter-store.js';

/*
 * One round trip per request: read every counter, refuse without counting when any is at its
 * limit, otherwise increment all (setting the expiry on a counter's first unit).
 * KEYS: counters. ARGV: limits, then TTLs in ms.
 */
const CONSUME = `
local n = #KEYS
local counts = {}
for i = 1, n do counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0') end
for i = 1, n do
  if counts[i] >= tonumber(ARGV[i]) then return {0, unpack(counts)} end
end
for i = 1, n do
  counts[i] = redis.call('INCR', KEYS[i])
  if counts[i] == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[n + i]) end
end
return {1, unpack(counts)}
`;

type ConsumeCommand = (numKeys: number, ...args: (string | number)[]) => Promise<number[]>;

export interface RedisStoreOptions {
  url: string;
  keyPrefix: string;
  /** How long one command may take before the request is served without counting. */
  commandTimeoutMs?: number;
  /** How long requests right after start wait for the first connection. */
  startupWaitMs?: number;
}

/**
 * Counters in Redis, shared by every instance. It never queues commands while disconnected and
 * never retries them: a request must not wait on a Redis that is down (the caller fails open),
 * while the client keeps reconnecting in the background so counting resumes by itself.
 */
export function createRedisStore(options: RedisStoreOptions): CounterStore {
  // ioredis is a third of a megabyte of code that only servers with REDIS_URL use: loaded then.
  let redis: Redis | undefined;
  let closed = false;
  const loading = import('ioredis').then(({ default: ioredis }) => {
    if (closed) return;
    redis = new ioredis.Redis(options.url, {
      keyPrefix: options.keyPrefix,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 2_000,
      lazyConnect: false,
      retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
    });
    // Connection errors surface on each command as rejections; this listener only stops ioredis
    // from treating them as unhandled.
    redis.on('error', () => undefined);
    redis.defineCommand('inboxConsume', { lua: CONSUME });
    consume = (redis as unknown as { inboxConsume: ConsumeCommand }).inboxConsume.bind(redis);
    const client = redis;
    firstAttempt = new Promise<void>((resolve) => {
      const done = () => {
        firstAttemptDone = true;
        resolve();
      };
      client.once('ready', done);
      client.once('error', done);
    });
  });
  let consume: ConsumeCommand | undefined;

  // Requests right after start wait (briefly) for the first connection attempt instead of going
  // uncounted; after that attempt (connected or failed) nothing waits: a Redis that is not
  // connected fails the call at once and the caller fails open.
  const startupWaitMs = options.startupWaitMs ?? 2_000;
  let firstAttemptDone = false;
  let firstAttempt: Promise<void> = loading;

  async function firstAttemptWithin(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    });
    // The module first, then the connection attempt, both within the same `ms`.
    await Promise.race([loading.then(() => firstAttempt), waited]);
    clearTimeout(timer);
  }

  async function connected(): Promise<ConsumeCommand> {
    if (redis?.status === 'ready' && consume) return consume;
    if (!firstAttemptDone) await firstAttemptWithin(startupWaitMs);
    // Re-read: the status may have changed while waiting (TypeScript narrowed it above).
    const status: string = redis?.status ?? 'loading';
    if (status !== 'ready' || !consume) throw new Error(`redis is not connected (${status})`);
    return consume;
  }

  return {
    kind: 'redis',
    async consume(specs: readonly CounterSpec[]): Promise<ConsumeResult> {
      const command = await connected();
      const reply = await command(specs.length, ...specs.map((s) => s.key), ...specs.map((s) => s.limit), ...specs.map((s) => Math.max(1, Math.ceil(s.ttlMs))));
      const [allowed, ...counts] = reply.map(Number);
      return { allowed: allowed === 1, counts };
    },
    async ready(maxWaitMs) {
      if (redis?.status !== 'ready') await firstAttemptWithin(maxWaitMs);
      return redis?.status === 'ready';
    },
    async close() {
      closed = true;
      await loading;
      redis?.disconnect();
    },
  };
}
