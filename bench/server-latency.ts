/*
 * The server's own view of a run's latency: the request-duration histogram both sides serve at
 * GET /metrics (the contract asks it of the service, and the contract baseline keeps one too), read
 * before and after a run. Under 32 saturating connections on two shared cores, the load
 * generator's p99 is mostly time a request waits outside the server (docs/performance.md, session
 * 9); the histogram says how long the server took once it began on the request, which is the
 * latency a user has when the machine is not saturated.
 */

/** Cumulative counts by bucket bound (seconds; +Inf as Infinity), summed over the routes a run uses. */
export type DurationBuckets = Map<number, number>;

const BUCKET = /^[a-z_]*http_request_duration_seconds_bucket\{([^}]*)\}\s+([0-9.eE+-]+)\s*$/;
/** Requests that are the bench's own, not the scenario's. */
const NOT_THE_RUN = /route="\/(metrics|healthz|readyz)"/;

export function parseDurationBuckets(metricsText: string): DurationBuckets {
  const buckets: DurationBuckets = new Map();
  for (const line of metricsText.split('\n')) {
    const m = BUCKET.exec(line);
    if (!m || NOT_THE_RUN.test(m[1]!)) continue;
    const le = /le="([^"]+)"/.exec(m[1]!)?.[1];
    if (le === undefined) continue;
    const bound = le === '+Inf' ? Infinity : Number(le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + Number(m[2]));
  }
  return buckets;
}

/** The server's histogram now; null when it does not serve one (or answers otherwise). */
export async function readDurationBuckets(url: string): Promise<DurationBuckets | null> {
  try {
    const answer = await fetch(new URL('/metrics', url), { signal: AbortSignal.timeout(10_000) });
    return answer.ok ? parseDurationBuckets(await answer.text()) : null;
  } catch {
    return null;
  }
}

/**
 * The bucket bound (ms) that holds the 99th percentile of the requests between two readings: the
 * p99 is at most this. Null without both readings or without requests between them.
 */
export function serverP99BoundMs(before: DurationBuckets | null, after: DurationBuckets | null): number | null {
  if (!before || !after) return null;
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const counts = bounds.map((b) => (after.get(b) ?? 0) - (before.get(b) ?? 0));
  const total = counts.at(-1) ?? 0;
  if (total <= 0) return null;
  const index = counts.findIndex((n) => n >= 0.99 * total);
  const bound = bounds[index]!;
  return Number.isFinite(bound) ? Math.round(bound * 1000 * 1000) / 1000 : Infinity;
}
