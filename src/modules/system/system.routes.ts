import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { pingDb } from '../../db/create-db.js';

const Status = Type.Object({ status: Type.String() });

/** Probes for orchestrators: liveness never touches the database, readiness does. */
export const systemRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/healthz', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));

  // Prometheus text format; for the operator's scraper, like the probes above.
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const { registry } = services.metrics;
    return reply.type(registry.contentType).send(await services.metrics.render());
  });

  app.get('/readyz', { schema: { hide: true, response: { 200: Status, 503: Status } } }, async (request, reply) => {
    try {
      await pingDb(services.db);
      return { status: 'ok' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed: database unreachable');
      return reply.status(503).send({ status: 'database unavailable' });
    }
  });
};
