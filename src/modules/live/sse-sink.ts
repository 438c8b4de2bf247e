import { fastifySSE } from '@fastify/sse';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ChangeSink, LiveService } from './live.service.js';

/**
 * Server-Sent Events for the live change streams, shared by the API's GET /changes/stream and
 * the web app's GET /live (decision 0049), so both frame, keep alive and shut down the same way.
 * Registers @fastify/sse in `app` (its route hook and reply decoration reach that scope only).
 */
export async function installChangeStreams(app: FastifyInstance, live: Pick<LiveService, 'keepAliveMs' | 'endAll'>): Promise<void> {
  await app.register(fastifySSE, { heartbeatInterval: live.keepAliveMs });
  // Before the server stops accepting: open streams end at once (their clients reconnect elsewhere)
  // instead of holding the shutdown until close-with-grace gives up.
  app.addHook('preClose', async () => live.endAll());
}

/** The SSE response as a sink: @fastify/sse writes the framing and waits for the socket to drain. */
export function sseSink(reply: FastifyReply): ChangeSink {
  return {
    start: () => {
      reply.sse.keepAlive();
      reply.sse.sendHeaders();
      // Node holds a response's head until its first body write; a client must not wait for the
      // first change or keep-alive to learn that its stream is open.
      reply.raw.flushHeaders();
    },
    send: (change) => reply.sse.send({ id: change.cursor, event: 'change', data: change }),
    end: () => reply.sse.close(),
    onClose: (callback) => reply.sse.onClose(callback),
  };
}
