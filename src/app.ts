import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DEFAULT_MCP, type Config } from './config.js';
import { fixedFieldLogger } from './lib/logger.js';
import { redactUrl } from './lib/redact-url.js';
import { fastifyTrustProxy } from './lib/trust-proxy.js';
import type { Services } from './container.js';
import { attachmentsRoutes } from './modules/attachments/attachments.routes.js';
import { bulkRoutes } from './modules/bulk/bulk.routes.js';
import { caldavRoutes } from './modules/caldav/caldav.routes.js';
import { datesRoutes } from './modules/dates/dates.routes.js';
import { eventsRoutes } from './modules/events/events.routes.js';
import { captureRoutes } from './modules/capture/capture.routes.js';
import { itemsRoutes } from './modules/items/items.routes.js';
import { feedFileRoutes } from './modules/feeds/feed-file.routes.js';
import { feedsRoutes } from './modules/feeds/feeds.routes.js';
import { filtersRoutes } from './modules/filters/filters.routes.js';
import { liveRoutes } from './modules/live/live.routes.js';
import { quickAddRoutes } from './modules/quick-add/quick-add.routes.js';
import { recurrenceRoutes } from './modules/recurrence/recurrence.routes.js';
import { remindersRoutes } from './modules/reminders/reminders.routes.js';
import { channelsRoutes } from './modules/deliveries/channels.routes.js';
import { installMcp } from './modules/mcp/mcp.routes.js';
import { organizerRoutes } from './modules/organizer/organizer.routes.js';
import { pairingRoutes } from './modules/pairing/pairing.routes.js';
import { projectsRoutes } from './modules/projects/projects.routes.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { agentDocsRoutes } from './modules/agent-docs/agent-docs.routes.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { tagsRoutes } from './modules/tags/tags.routes.js';
import { transferRoutes } from './modules/transfer/transfer.routes.js';
import { keysRoutes } from './modules/keys/keys.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { emailInRoutes } from './modules/email-in/email-in.routes.js';
import { voiceRoutes } from './modules/voice/voice.routes.js';
import { webhooksRoutes } from './modules/deliveries/webhooks.routes.js';
import { installBearerAuth } from './plugins/auth.js';
import { installBodyDrain } from './plugins/body-drain.js';
import { RequestLog } from './plugins/request-log.js';
import { LazyRequestLogger } from './plugins/lazy-request-logger.js';
import { createDeferredCompilers } from './plugins/deferred-compilers.js';
import { installIdempotency } from './plugins/idempotency.js';
import { installItemEtags } from './plugins/item-etags.js';
import { installCors } from './plugins/cors.js';
import { installErrorHandlers, routerErrorHandler } from './plugins/error-handler.js';
import { installHttpMetrics } from './plugins/http-metrics.js';
import { installJsonParser } from './plugins/json-body.js';
import { installOpenApi } from './plugins/openapi.js';
import { installPlanGate } from './plugins/plan-gate.js';
import { installRateLimits } from './plugins/rate-limit.js';
import { installScopes } from './plugins/scopes.js';
import { installSecurityHeaders } from './plugins/security-headers.js';
import { installValidators } from './plugins/validation.js';
import { createNotFoundPage } from './web/errors.js';
import { AppError } from './errors.js';
import { webApp } from './web/web.plugin.js';

const API_PREFIX = '/api/v1';
const ONE_MIB = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The services the HTTP layer hands to its plugins: all but the workers the server process starts and the container's close. */
type AppServices = Pick<
  Services,
  | 'accounts'
  | 'accountSettings'
  | 'attachments'
  | 'batchCapture'
  | 'bulk'
  | 'caldav'
  | 'capture'
  | 'channels'
  | 'clock'
  | 'db'
  | 'emailIn'
  | 'events'
  | 'feeds'
  | 'filters'
  | 'idempotency'
  | 'instance'
  | 'items'
  | 'keys'
  | 'limits'
  | 'live'
  | 'logger'
  | 'metrics'
  | 'organizer'
  | 'pairing'
  | 'projects'
  | 'quickAdd'
  | 'recurrence'
  | 'reminders'
  | 'search'
  | 'subtasks'
  | 'tags'
  | 'transfer'
  | 'undo'
  | 'users'
  | 'voice'
  | 'webhooks'
>;

export interface BuildAppOptions {
  config: Pick<Config, 'publicUrl'> & Partial<Pick<Config, 'trustProxy' | 'metricsToken' | 'corsOrigins' | 'signup' | 'mcp' | 'mail'>>;
  /** Their logger is the app's logger too, so service and request log lines look alike. */
  services: AppServices;
}

/** Fastify's own request log fields, with the URL's secret query values redacted. */
function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return { method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}

/** A caller's X-Request-Id is kept when it is sane, so logs can be joined across services. */
function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export async function buildApp({ config, services }: BuildAppOptions): Promise<FastifyInstance> {
  // Widened to Fastify's logger type so plugins typed against the default instance still fit. The
  // child's request serializer takes the place of Fastify's, so secrets in URLs are never logged.
  const loggerInstance: FastifyBaseLogger = services.logger.child({}, { serializers: { req: serializeRequest } });
  const compilers = createDeferredCompilers();
  const app = Fastify({
    schemaController: compilers.schemaController,
    loggerInstance,
    trustProxy: fastifyTrustProxy(config.trustProxy ?? false),
    genReqId: requestId,
    requestIdHeader: false,
    logController: new RequestLog(fixedFieldLogger(services.logger)),
    childLoggerFactory: (logger, bindings, options) => new LazyRequestLogger(logger, bindings, options),
    bodyLimit: ONE_MIB,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: routerErrorHandler,
    // Fastify's own 503 while closing is not in the contract's error shape: the hook below answers instead.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  installValidators(app, compilers);
  app.decorate('compileSchemas', compilers.compileAll);
  installJsonParser(app);
  installErrorHandlers(app, { notFoundPage: createNotFoundPage({ accounts: services.accounts, publicUrl: config.publicUrl }) });
  installHttpMetrics(app, services.metrics.httpDuration);
  installSecurityHeaders(app);
  installBodyDrain(app);
  // Callback hooks, not async ones: every request runs them, and a promise per hook shows in its cost.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  // During shutdown, responses to in-flight requests close their connection, so a keep-alive
  // client cannot hold the process open after its last answer.
  // A request that still arrives then (on a connection that was busy) is refused before any work,
  // in the error shape, so a load balancer or client retries it elsewhere or later.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    done(closing ? new AppError('service_unavailable', 'the server is shutting down; retry shortly', { headers: { 'retry-after': '5' } }) : undefined);
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });

  // Each routes plugin is given the services it calls and nothing else, so its options say what it depends on.
  const {
    accounts,
    accountSettings,
    bulk,
    capture,
    clock,
    db,
    events,
    filters,
    idempotency,
    instance,
    items,
    keys,
    limits,
    live,
    metrics,
    organizer,
    pairing,
    projects,
    search,
    subtasks,
    tags,
    transfer,
    users,
    voice,
    webhooks,
    quickAdd,
    emailIn,
  } = services;
  await installOpenApi(app);
  await app.register(systemRoutes, { db, metrics, metricsToken: config.metricsToken });
  // Docs for agents, built from docs/ and the OpenAPI document (scripts/build-llms.mjs), no key.
  await app.register(agentDocsRoutes);

  await app.register(
    async (api) => {
      await installCors(api, config.corsOrigins ?? []);
      installBearerAuth(api, keys);
      installScopes(api);
      installRateLimits(api, limits);
      installPlanGate(api);
      installItemEtags(api);
      installIdempotency(api, idempotency);
      api.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
      await api.register(usersRoutes, { users, attachments: services.attachments });
      await api.register(keysRoutes, { keys });
      await api.register(captureRoutes, { capture, batchCapture: services.batchCapture });
      await api.register(itemsRoutes, { items, filters });
      await api.register(filtersRoutes, { filters });
      await api.register(feedsRoutes, { feeds: services.feeds });
      await api.register(searchRoutes, { search });
      await api.register(bulkRoutes, { bulk });
      await api.register(organizerRoutes, { organizer });
      await api.register(projectsRoutes, { items, projects });
      await api.register(tagsRoutes, { tags });
      await api.register(voiceRoutes, { voice, capture, batchCapture: services.batchCapture, attachments: services.attachments });
      await api.register(pairingRoutes, { pairing });
      await api.register(webhooksRoutes, { webhooks });
      await api.register(eventsRoutes, { events });
      await api.register(liveRoutes, { live });
      await api.register(transferRoutes, { transfer });
      await api.register(datesRoutes, { clock });
      await api.register(quickAddRoutes, { quickAdd });
      await api.register(recurrenceRoutes, { recurrence: services.recurrence });
      await api.register(remindersRoutes, { reminders: services.reminders });
      await api.register(channelsRoutes, { channels: services.channels });
      await api.register(emailInRoutes, { emailIn });
      await api.register(attachmentsRoutes, { attachments: services.attachments });
    },
    { prefix: API_PREFIX },
  );
  // Calendar apps: the CalDAV server under /dav/ with its discovery (src/modules/caldav).
  await app.register(caldavRoutes, { caldav: services.caldav, keys, limits });
  // Feeds for calendar apps that only subscribe: GET /feeds/{secret}.ics, no key (src/modules/feeds).
  await app.register(feedFileRoutes, { feeds: services.feeds, limits });
  // The MCP endpoint for agents: its tools call the API above in-process (src/modules/mcp).
  await installMcp(app, { keys, load: config.mcp ?? DEFAULT_MCP });
  // Developer settings list the user's webhooks read-only, from the same service as the API.
  await app.register(webApp, {
    services: {
      accounts,
      accountSettings,
      attachments: services.attachments,
      batchCapture: services.batchCapture,
      bulk,
      capture,
      channels: services.channels,
      clock,
      emailIn,
      feeds: services.feeds,
      filters,
      instance,
      items,
      keys,
      limits,
      live,
      pairing,
      projects,
      quickAdd,
      reminders: services.reminders,
      search,
      subtasks,
      tags,
      transfer,
      undo: services.undo,
      users,
      voice,
    },
    publicUrl: config.publicUrl,
    smtp: Boolean(config.mail?.smtpUrl),
    webhooks: { listForUser: (userId) => webhooks.list(userId) },
  });

  return app;
}
