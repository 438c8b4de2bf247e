import { Agent, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installBodyDrain } from '../../src/plugins/body-drain.js';

/*
 * Many answers on one keep-alive connection leave nothing behind on it. The body drain (an answer
 * given mid-upload: the rest of the body is read and dropped) left a close listener on the socket
 * per such answer, for the connection's life (MaxListenersExceededWarning at 11). Under load the
 * server's 401 for a bodyless GET sometimes went out before Node marked the request complete, and
 * was drained too (seen with autocannon against dist/server.js); a request without a body is never
 * drained now.
 */
describe('the body drain on a keep-alive connection', () => {
  let app: FastifyInstance;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    app = Fastify();
    installBodyDrain(app);
    app.addHook('onRequest', (_request, reply, done) => {
      reply.code(401).send({ error: 'unauthorized' });
      done();
    });
    app.get('/', async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    app.server.on('connection', (socket: Socket) => sockets.push(socket));
  });
  afterAll(async () => {
    await app?.close();
  });

  const answer = (port: number, agent: Agent, body: 'none' | 'late'): Promise<number> =>
    new Promise<number>((resolve, reject) => {
      const headers = body === 'late' ? { 'content-type': 'text/plain', 'content-length': '10' } : undefined;
      const req = request({ host: '127.0.0.1', port, path: '/', method: body === 'late' ? 'POST' : 'GET', agent, headers }, (res) => {
        // The rest of the body goes only once the answer came: the server answered mid-upload.
        if (body === 'late') req.end('67890');
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      if (body === 'late') req.write('12345');
      else req.end();
    });

  it.each(['none', 'late'] as const)('leaves no listener on the socket per answer (body: %s)', async (body) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const { port } = app.server.address() as AddressInfo;
    const before = sockets.length;
    try {
      for (let i = 0; i < 20; i += 1) expect(await answer(port, agent, body)).toBe(401);
      expect(sockets).toHaveLength(before + 1);
      expect(sockets.at(-1)!.listenerCount('close')).toBeLessThan(5);
    } finally {
      agent.destroy();
    }
  });
});
