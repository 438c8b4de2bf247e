import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';
import { actor, capture, ok } from '../helpers/items.js';
import type { TestApp } from '../helpers/test-app.js';
import { createTestApp } from '../helpers/test-app.js';
import { createTestCertificates, type TestCertificates } from '../helpers/test-ca.js';
import { ScriptedReplies, createDeliveryApp, registerWebhook } from '../helpers/webhooks.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const ALLOWED = 'https://app.example.com';

/** The value of one sample line of the Prometheus text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

let certs: TestCertificates;
let receiver: HttpsReceiver;
const replies = new ScriptedReplies();

beforeAll(async () => {
  certs = await createTestCertificates();
  receiver = await new HttpsReceiver(certs, replies.respond).start();
});
afterAll(async () => receiver?.close());

describe.each(DIALECTS)('GET /metrics and CORS (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createDeliveryApp(dialect, { certs, metricsToken: METRICS_TOKEN, corsOrigins: [ALLOWED, 'http://127.0.0.1:5173'] });
  });
  afterAll(async () => t?.close());

  const metrics = async (authorization?: string) => t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  describe('GET /metrics', () => {
    it('answers 401 without the METRICS_TOKEN bearer, and with a wrong one', async () => {
      for (const header of [undefined, 'Bearer wrong-token-0123456789abcdef', METRICS_TOKEN]) {
        const res = await metrics(header);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ error: 'unauthorized' });
      }
    });

    it('times requests by route pattern and status, never by raw path', async () => {
      const a = await actor(t, 'pro');
      const item = await capture(a.c, 'Measure me');
      ok(await a.c.get(`items/${item.id}`));
      ok(await a.c.get(`items/${item.id}`));
      const res = await metrics(`Bearer ${METRICS_TOKEN}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(sample(res.body, 'capture_inbox_http_request_duration_seconds_count{method="GET",route="/api/v1/items/:id",status_code="200"}')).toBe(2);
      expect(res.body).not.toContain(item.id);
    });

    it('counts organizer runs by engine, webhook attempts by outcome and shows the delivery queue', async () => {
      const a = await actor(t, 'pro');
      replies.plan(`/${dialect}/metrics`, [500]);
      await registerWebhook(a, receiver.url(`/${dialect}/metrics`), ['item.created']);
      ok(await a.c.post('capture', { text: 'call mom tomorrow', organize: true }), 201);
      const queued = await metrics(`Bearer ${METRICS_TOKEN}`);
      expect(sample(queued.body, 'capture_inbox_organizer_runs_total{engine="local"}')).toBe(1);
      await t.services.webhookWorker.drain();
      const after = (await metrics(`Bearer ${METRICS_TOKEN}`)).body;
      expect(sample(after, 'capture_inbox_webhook_attempts_total{outcome="failed"}')).toBe(1);
      expect(sample(after, 'capture_inbox_webhook_deliveries_pending')).toBe(1);
      expect(sample(after, 'capture_inbox_transcriptions_waiting')).toBe(0);
      t.clock.advance(1000);
      await t.services.webhookWorker.drain();
      const done = (await metrics(`Bearer ${METRICS_TOKEN}`)).body;
      expect(sample(done, 'capture_inbox_webhook_attempts_total{outcome="succeeded"}')).toBe(1);
      expect(sample(done, 'capture_inbox_webhook_deliveries_pending')).toBe(0);
    });
  });

  describe('CORS on /api/v1', () => {
    const preflight = (origin: string, url = '/api/v1/capture') =>
      t.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });

    it('answers a preflight from a listed origin without credentials', async () => {
      const res = await preflight(ALLOWED);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/authorization/);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('gives no Access-Control-Allow-Origin to another origin, so the browser refuses', async () => {
      const res = await preflight('https://evil.example.net');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('marks actual responses for the listed origin and exposes the paging and limit headers', async () => {
      const a = await actor(t);
      const res = await a.c.get('items', { origin: ALLOWED });
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(String(res.headers['access-control-expose-headers'])).toMatch(/x-next-cursor/);
    });

    it('leaves the web app and /metrics out of CORS', async () => {
      const res = await t.app.inject({ method: 'OPTIONS', url: '/settings/keys', headers: { origin: ALLOWED, 'access-control-request-method': 'POST' } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  it('without CORS_ORIGINS, answers no preflight at all', async () => {
    const plain = await createTestApp(dialect);
    try {
      const res = await plain.app.inject({ method: 'OPTIONS', url: '/api/v1/capture', headers: { origin: ALLOWED, 'access-control-request-method': 'POST' } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
