/**
 * What the rate limiter adds to one request with the memory store: the per-user check (both
 * windows) plus writing its five headers, timed call by call. Reported as the median and p99 in
 * microseconds over many calls spread across many users, as one JSON line.
 */
import Fastify from 'fastify';
import { pino } from 'pino';
import { DEFAULT_LIMITS } from '../src/config.js';
import { systemClock } from '../src/lib/clock.js';
import { createLimitsService } from '../src/modules/limits/limits.service.js';
import { createMemoryStore } from '../src/modules/limits/memory-store.js';
import { createMetrics } from '../src/modules/metrics/metrics.js';
import { installRateLimits } from '../src/plugins/rate-limit.js';

const CALLS = 200_000;
const USERS = 1_000;

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface LimiterOverhead {
  calls: number;
  /** One limiter check (both windows), memory store. */
  median_us: number;
  p99_us: number;
  /** Median of a whole in-process request with the limiter hook minus one without it. */
  http_median_delta_us: number;
}

export async function measureLimiterOverhead(): Promise<LimiterOverhead> {
  const limits = createLimitsService({
    store: createMemoryStore(systemClock),
    config: { ...DEFAULT_LIMITS, pro: { perMinute: 1e9, perDay: 1e9 } },
    clock: systemClock,
    metrics: createMetrics(),
    logger: pino({ level: 'silent' }),
  });
  // Two identical apps but for the limiter hook, driven in-process; the difference per request is
  // the limiter's cost, without network noise.
  const build = async (withLimiter: boolean) => {
    const app = Fastify();
    app.decorateRequest('authUser', null);
    let n = 0;
    app.addHook('onRequest', async (request) => {
      n += 1;
      request.authUser = { id: `user-${n % USERS}`, email: 'x', plan: 'pro', timezone: 'UTC', keyId: 'k' };
    });
    if (withLimiter) installRateLimits(app, limits);
    app.get('/', async () => ({ ok: true }));
    await app.ready();
    return app;
  };
  const hookOnly = new Float64Array(CALLS);
  const user = { id: '', plan: 'pro' as const };
  for (let i = 0; i < CALLS; i += 1) {
    user.id = `user-${i % USERS}`;
    const start = process.hrtime.bigint();
    await limits.checkUserRequest(user);
    hookOnly[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  hookOnly.sort();

  const [plain, limited] = [await build(false), await build(true)];
  const medianOf = async (app: Awaited<ReturnType<typeof build>>) => {
    const samples = new Float64Array(20_000);
    for (let i = 0; i < samples.length; i += 1) {
      const start = process.hrtime.bigint();
      await app.inject({ method: 'GET', url: '/' });
      samples[i] = Number(process.hrtime.bigint() - start) / 1000;
    }
    samples.sort();
    return percentile(samples, 50);
  };
  // Interleave rounds so drift on a shared machine hits both alike.
  const deltas: number[] = [];
  for (let round = 0; round < 5; round += 1) deltas.push((await medianOf(limited)) - (await medianOf(plain)));
  await Promise.all([plain.close(), limited.close(), limits.close()]);
  deltas.sort((a, b) => a - b);
  return {
    calls: CALLS,
    median_us: Number(percentile(hookOnly, 50).toFixed(2)),
    p99_us: Number(percentile(hookOnly, 99).toFixed(2)),
    http_median_delta_us: Number(deltas[2]!.toFixed(2)),
  };
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  measureLimiterOverhead().then(
    (result) => process.stdout.write(`${JSON.stringify({ bench: 'limiter-overhead', store: 'memory', ...result })}\n`),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
