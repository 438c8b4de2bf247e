import type { FastifyInstance } from 'fastify';
import type { Histogram } from 'prom-client';

/**
 * Times every response by its route pattern: a raw path would make one series per item id.
 * Requests no route matched share the label `unmatched`.
 */
export function installHttpMetrics(app: FastifyInstance, duration: Histogram<'method' | 'route' | 'status_code'>): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
}
