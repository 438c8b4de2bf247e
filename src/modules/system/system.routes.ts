import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { pingDb } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import { bearerMatches } from './metrics-token.js';

const Status = Type.Object({ status: Type.String() });
/** Not ready: the database is down (a status), or the server is shutting down (the error shape, src/app.ts). */
const NotReady = Type.Union([Status, Type.Object({ error: Type.String(), message: Type.String() })]);

/** Probes for orchestrators: liveness never touches the database, readiness does. */
export const systemRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'db' | 'metrics'> & { metricsToken?: string | undefined }> = async (
  app,
  { db, metrics, metricsToken },
) => {
  app.get('/healthz', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));

  // Prometheus text format; for the operator's scraper, like the probes above.
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    // METRICS_TOKEN: the scraper sends it as a bearer token; everyone else gets a plain 401.
    if (metricsToken !== undefined && !bearerMatches(request.headers.authorization, metricsToken)) {
      throw new AppError('unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>', {
        headers: { 'www-authenticate': 'Bearer realm="metrics"' },
      });
    }
    const { registry } = metrics;
    return reply.type(registry.contentType).send(await metrics.render());
  });

  app.get('/readyz', { schema: { hide: true, response: { 200: Status, 503: NotReady } } }, async (request, reply) => {
    try {
      await pingDb(db);
      return { status: 'ok' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed: database unreachable');
      return reply.status(503).send({ status: 'database unavailable' });
    }
  });
};
