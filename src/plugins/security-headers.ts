import type { FastifyInstance } from 'fastify';

/**
 * The API reference page runs a renderer's scripts next to this origin's cookies: it may load
 * code, styles and fonts only from here (renderers style elements inline, hence 'unsafe-inline'
 * for styles alone), fetch only from here, and never be framed.
 */
const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const isDocs = (url: string): boolean => url === '/docs' || url.startsWith('/docs/') || url.startsWith('/docs?');

/**
 * Headers every answer gets unless its route set its own: `nosniff` so no browser reads a JSON
 * answer (which may echo user text) as HTML or script, and the CSP of /docs. Web pages set
 * stricter headers of their own (src/web/layout.ts) and keep them.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('x-content-type-options')) void reply.header('x-content-type-options', 'nosniff');
    if (isDocs(request.url) && !reply.hasHeader('content-security-policy')) void reply.header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY);
    done(null, payload);
  });
}
