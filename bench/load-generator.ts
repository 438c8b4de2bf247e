import type { Scenario } from './scenarios.js';

/** What one timed run of a scenario measured. Latencies in milliseconds. */
export interface RunFigures {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Answers that were not 2xx (wrk counts status 400 and above; the API never redirects). */
  non2xx: number;
}

/** Drives `connections` keep-alive connections at the server for `seconds`, each sending its next request as soon as the last is answered. */
export interface LoadGenerator {
  name: 'wrk' | 'autocannon';
  /** A run continues the scenario where the previous run of the same scenario stopped. */
  run(url: string, token: string, scenario: Scenario, seconds: number): Promise<RunFigures>;
}
