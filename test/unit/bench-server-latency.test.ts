import { describe, expect, it } from 'vitest';
import { parseDurationBuckets, serverP99BoundMs } from '../../bench/server-latency.js';

/** Two routes' series as prom-client writes them, and the bench's own scrape, which must not count. */
const metrics = (getCounts: number[], metricsCount: number) =>
  [
    '# HELP capture_inbox_http_request_duration_seconds HTTP request duration',
    '# TYPE capture_inbox_http_request_duration_seconds histogram',
    ...['0.001', '0.005', '0.01', '0.05', '+Inf'].map(
      (le, i) => `capture_inbox_http_request_duration_seconds_bucket{le="${le}",method="GET",route="/api/v1/items/:id",status_code="200"} ${getCounts[i]}`,
    ),
    `capture_inbox_http_request_duration_seconds_bucket{le="0.001",method="GET",route="/api/v1/items/:id",status_code="404"} 1`,
    `capture_inbox_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/items/:id",status_code="404"} 1`,
    `http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/metrics",status_code="200"} ${metricsCount}`,
    'capture_inbox_http_request_duration_seconds_count{method="GET",route="/api/v1/items/:id",status_code="200"} 5',
  ].join('\n');

describe('the server-side p99 of a bench run', () => {
  it('sums the routes by bucket, without the bench’s own scrapes', () => {
    const buckets = parseDurationBuckets(metrics([1, 2, 3, 4, 5], 7));
    expect(buckets.get(0.001)).toBe(2);
    expect(buckets.get(Infinity)).toBe(6);
    expect(buckets.get(0.05)).toBe(4);
  });

  it('answers the bucket bound holding the 99th percentile of the requests between two readings', () => {
    const before = parseDurationBuckets(metrics([0, 0, 0, 0, 0], 1));
    // 1,000 requests: 980 under 1 ms, 10 more under 5 ms, the last 10 under 10 ms: the 990th is under 5 ms.
    expect(serverP99BoundMs(before, parseDurationBuckets(metrics([980, 990, 1000, 1000, 1000], 2)))).toBe(5);
    // One more slow one and the 99th percentile moves to the 10 ms bucket.
    expect(serverP99BoundMs(before, parseDurationBuckets(metrics([980, 989, 1000, 1001, 1001], 2)))).toBe(10);
    // Beyond every finite bound: unbounded.
    expect(serverP99BoundMs(before, parseDurationBuckets(metrics([0, 0, 0, 0, 100], 2)))).toBe(Infinity);
    expect(serverP99BoundMs(before, before)).toBeNull();
    expect(serverP99BoundMs(null, before)).toBeNull();
  });
});
