import type { FastifyInstance } from 'fastify';

/** Statuses whose answer has no body (a Response built with one throws). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A fetch that answers from the app itself, through Fastify's inject: the hosted MCP tools call
 * the API as any client does, so authentication, scopes, validation, rate limits and error bodies
 * are the API's own, without a socket or a second network hop. Only the path and query of the URL
 * are used.
 */
export function injectFetch(app: FastifyInstance, remoteAddress: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await app.inject({
      method: request.method,
      url: `${url.pathname}${url.search}`,
      headers,
      remoteAddress,
      ...(body !== undefined ? { payload: body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
    }
    return new Response(NULL_BODY.has(answer.statusCode) ? null : answer.rawPayload, { status: answer.statusCode, headers: responseHeaders });
  };
}
