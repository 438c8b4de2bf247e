import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';

/*
 * A request that reaches the server while it shuts down (a keep-alive connection that was busy when
 * SIGTERM came) is answered 503 in the contract's error shape. Such a request cannot be timed
 * reliably against the app's own listener, which stops accepting; a second HTTP server handing its
 * requests to the app's router stands in for that busy connection.
 */
describe('a request during shutdown', () => {
  let t: TestApp;
  let user: TestUser;
  let other: Server;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    user = await createUser(t, 'free');
    other = createServer((req, res) => t.app.routing(req, res));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    other?.closeAllConnections();
    await new Promise((resolve) => other?.close(resolve));
    await t?.close();
  });

  it('is served normally before, and answered 503 service_unavailable with Retry-After once the app is closing', async () => {
    const before = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(before.status).toBe(200);
    await t.app.close();
    for (const [method, path] of [
      ['GET', '/api/v1/me'],
      ['POST', '/api/v1/capture'],
      ['GET', '/readyz'],
    ] as const) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify({ text: 'during shutdown' }) } : {}),
      });
      expect(res.status, path).toBe(503);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(res.headers.get('retry-after'), path).toBe('5');
      expect(res.headers.get('connection'), path).toBe('close');
      expect(await res.json(), path).toEqual({ error: 'service_unavailable', message: expect.stringMatching(/shutting down/) });
    }
  });
});
