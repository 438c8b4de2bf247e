import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

export type StoreName = 'memory' | 'redis';

/** The memory store always; Redis as well when TEST_REDIS_URL points at a server we may use. */
export const STORES: StoreName[] = ['memory', ...(process.env.TEST_REDIS_URL ? (['redis'] as const) : [])];

export interface TestRedis {
  url: string;
  keyPrefix: string;
  /** Generous: on a loaded machine a stalled event loop must not turn into an uncounted request. */
  commandTimeoutMs: number;
}

/** A key prefix of its own for one test, so parallel runs never share counters. */
export function testRedis(): TestRedis {
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error('TEST_REDIS_URL is not set');
  return { url, keyPrefix: `cin-test:${randomUUID()}:`, commandTimeoutMs: 5_000 };
}

/** Deletes every key under the prefix (bounded: a test writes a handful). */
export async function removeRedisKeys(target: TestRedis): Promise<void> {
  const redis = new Redis(target.url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    for (let round = 0; round < 1000; round += 1) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${target.keyPrefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  } finally {
    redis.disconnect();
  }
}
