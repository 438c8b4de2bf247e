import autocannon from 'autocannon';
import type { LoadGenerator, RunFigures } from './load-generator.js';

/** autocannon in the bench process itself: no install step, but it takes more of the shared cores than wrk. */
export function createAutocannonLoad(connections: number): LoadGenerator {
  return {
    name: 'autocannon',
    async run(url, token, scenario, seconds): Promise<RunFigures> {
      const auth = { authorization: `Bearer ${token}` };
      const r = await autocannon({
        url,
        connections,
        duration: seconds,
        requests: [
          {
            method: scenario.method,
            setupRequest: (request) => {
              const { path, body } = scenario.next();
              return body === undefined
                ? { ...request, path, headers: auth }
                : { ...request, path, body, headers: { ...auth, 'content-type': 'application/json' } };
            },
          },
        ],
      });
      return {
        rps: r.requests.average,
        p50_ms: r.latency.p50,
        p99_ms: r.latency.p99,
        requests: r.requests.total,
        errors: r.errors + r.timeouts,
        non2xx: r.non2xx,
      };
    },
  };
}
