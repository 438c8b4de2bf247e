import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingLogger } from '../helpers/log-capture.js';
import { client, createTestApp, createUser, type TestApp } from '../helpers/test-app.js';

/* One log line per request, written with the answer; secrets in the query string never reach it. */
describe('request log', () => {
  let t: TestApp;
  const { logger, lines } = capturingLogger();
  beforeAll(async () => {
    t = await createTestApp('sqlite', { logger });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes one line per request with method, url, status and duration', async () => {
    const user = await createUser(t);
    lines.length = 0;
    const res = await client(t.app, user.token).get('items?limit=3');
    expect(res.status).toBe(200);
    const logged = lines.filter((l) => l.msg === 'request');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ method: 'GET', url: '/api/v1/items?limit=3', status: 200, reqId: res.headers['x-request-id'] });
    expect(typeof logged[0]?.ms).toBe('number');
    expect(lines.filter((l) => l.msg !== 'request')).toEqual([]);
  });

  it('redacts secret values in the query string', async () => {
    lines.length = 0;
    await t.app.inject({ method: 'GET', url: '/connect/agent?label=x&state=abcdefghijklmnopqrstuvwxyz012345&token=cin_secret' });
    const logged = lines.find((l) => l.msg === 'request');
    expect(logged?.url).toBe('/connect/agent?label=x&state=[redacted]&token=[redacted]');
    expect(JSON.stringify(lines)).not.toContain('abcdefghijklmnopqrstuvwxyz012345');
  });
});
