import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode, type ErrorDetail } from '../errors.js';

interface ErrorBody {
  [field: string]: unknown;
  error: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

function validationBody(error: FastifyError): ErrorBody {
  const part = error.validationContext ?? 'request';
  const details = (error.validation ?? []).map((v): ErrorDetail => {
    const missing = (v.params as { missingProperty?: unknown }).missingProperty;
    const path = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const field = typeof missing === 'string' ? [path, missing].filter(Boolean).join('.') : path;
    const message = typeof missing === 'string' ? 'is required' : (v.message ?? 'is invalid');
    return { field: field || part, message };
  });
  const first = details[0];
  const message = first ? `${part === 'body' ? '' : `${part} `}${first.field} ${first.message}`.trim() : `invalid ${part}`;
  return { error: 'bad_request', message, details };
}

function fastifyErrorBody(error: FastifyError, status: number): ErrorBody {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { error: 'unsupported_media_type', message: 'send the body as application/json (POST /api/v1/import also takes text/csv)' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { error: 'payload_too_large', message: 'request body is larger than the route accepts (1 MiB; 20 MiB for POST /api/v1/import)' };
    default:
      return { error: CODE_BY_STATUS[status] ?? 'bad_request', message: error.message };
  }
}

const routeNotFound = (method: string, url: string): ErrorBody => ({ error: 'not_found', message: `no route for ${method} ${url.split('?')[0]}` });

/**
 * Fastify's `frameworkErrors`, for failures before any route runs. A path the router cannot decode
 * (bad %-encoding) or with a parameter over its length limit names no resource: the contract's 404
 * for a malformed id, not Fastify's own 400/414 body.
 */
export function routerErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // No hook runs for these answers, so the header every JSON answer carries is set here.
  void reply.header('x-content-type-options', 'nosniff');
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.status(404).send(routeNotFound(request.method, request.url));
    return;
  }
  void reply.status(500).send({ error: 'internal_error', message: 'internal error; quote the X-Request-Id header when reporting it' });
}

export interface ErrorHandlerOptions {
  /** Renders the 404 for a browser asking for a page outside /api/ (the web app's own page). */
  notFoundPage?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | Promise<FastifyReply>;
}

const wantsPage = (request: FastifyRequest): boolean =>
  !request.url.startsWith('/api/') && (request.method === 'GET' || request.method === 'HEAD') && String(request.headers.accept ?? '').includes('text/html');

/** One place renders every error in the contract's `{ error, message, details? }` shape. */
export function installErrorHandlers(app: FastifyInstance, options: ErrorHandlerOptions = {}): void {
  app.setErrorHandler<FastifyError>((error, request, reply) => {
    // Fastify reads the body even for a route that does not exist; its absence is the answer, not
    // the body's content type, size or syntax.
    if (request.is404) return reply.status(404).send(routeNotFound(request.method, request.url));
    if (error instanceof AppError) {
      const body: ErrorBody = { ...error.fields, error: error.code, message: error.message };
      if (error.details) body.details = error.details;
      if (error.headers) void reply.headers(error.headers);
      return reply.status(error.statusCode).send(body);
    }
    if (error.validation) return reply.status(400).send(validationBody(error));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.status(status).send(fastifyErrorBody(error, status));
    // 5xx internals stay in the log, keyed by the request id the client also sees.
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'internal_error', message: 'internal error; quote the X-Request-Id header when reporting it' });
  });

  app.setNotFoundHandler((request, reply) => {
    if (options.notFoundPage && wantsPage(request)) return options.notFoundPage(request, reply);
    return reply.status(404).send(routeNotFound(request.method, request.url));
  });
}
