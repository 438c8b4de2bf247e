import type { FastifyReply, FastifyRequest } from 'fastify';

/** The MCP request as the SDK's web-standard transport reads it; the body is the text as it arrived. */
export function toWebRequest(request: FastifyRequest, body: string | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const hasBody = body !== undefined && request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(`http://mcp.invalid${request.url}`, { method: request.method, headers, ...(hasBody ? { body } : {}) });
}

/** Sends the transport's answer through Fastify, so the app's headers, logs and metrics apply to it. */
export async function sendWebResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  void reply.status(response.status);
  response.headers.forEach((value, name) => {
    void reply.header(name, value);
  });
  const text = await response.text();
  return reply.send(text === '' ? undefined : text);
}

/** A JSON-RPC error answer in the shape the SDK's transport gives its own (id null: no request was read). */
export function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply
    .status(status)
    .type('application/json')
    .send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
