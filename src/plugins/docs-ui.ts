import swagger, { type StaticDocumentSpec } from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

/** Headers of the inner answer that describe its own connection, not the page: the outer reply sets its own. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

/**
 * /docs: Swagger UI, set up on the first request for it (decisions/0033-docs-ui-on-first-request.md).
 * Loading @fastify/swagger-ui, its static file server and its YAML library, and registering its
 * routes, was a tenth of the server's start and about 4 MB of its memory, for a page most
 * processes never serve. Fastify fixes its routes at start, so the UI lives in an inner instance
 * of its own, built once, serving this server's document (@fastify/swagger in static mode); the
 * outer routes hand it each request unchanged and send its answer back, through this server's
 * own hooks (security headers, request log) like any other answer.
 */
export function installDocsUi(app: FastifyInstance, routePrefix: string, options: Omit<FastifySwaggerUiOptions, 'routePrefix'>): void {
  let inner: Promise<FastifyInstance> | undefined;

  async function build(): Promise<FastifyInstance> {
    const { default: swaggerUi } = await import('@fastify/swagger-ui');
    const ui = Fastify({ logger: false });
    // Our document is OpenAPI 3.1; the plugin's types name 2.0 and 3.0 only, and its static mode
    // serves whatever object it is given.
    const document = app.swagger() as StaticDocumentSpec['document'];
    await ui.register(swagger, { mode: 'static', specification: { document } });
    await ui.register(swaggerUi, { ...options, routePrefix });
    await ui.ready();
    return ui;
  }

  async function forward(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    // A failed build is not kept: the next request tries again.
    inner ??= build().catch((error: unknown) => {
      inner = undefined;
      throw error;
    });
    const ui = await inner;
    // Only GET routes lead here; Fastify answers HEAD from GET and drops the body itself.
    const answer = await ui.inject({
      method: 'GET',
      url: request.url,
      headers: request.headers,
    });
    // Our own answers for what the UI does not have or could not serve, in the API's error shape.
    if (answer.statusCode === 404) {
      reply.callNotFound();
      return reply;
    }
    if (answer.statusCode >= 500) throw new Error(`the docs UI answered ${answer.statusCode}: ${answer.body}`);
    void reply.code(answer.statusCode);
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !CONNECTION_HEADERS.has(name)) void reply.header(name, value);
    }
    return answer.rawPayload.length === 0 ? reply.send() : reply.send(answer.rawPayload);
  }

  app.addHook('onClose', async () => {
    if (inner) await (await inner.catch(() => undefined))?.close();
  });
  app.get(routePrefix, { schema: { hide: true } }, forward);
  app.get(`${routePrefix}/*`, { schema: { hide: true } }, forward);
}
