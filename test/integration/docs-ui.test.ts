import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/*
 * /docs is built on its first request and answered by an inner instance (src/plugins/docs-ui.ts).
 * What a browser relies on has to survive the hand-over: the page and its document, the static
 * files' validators, HEAD, redirects and 404s. The page itself is driven in chromium by
 * test/browser/ops.browser.test.ts. The docs do not touch the database: one dialect is enough.
 */
describe('/docs, set up on its first request', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it('answers several first requests at once, all alike', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.app.inject({ method: 'GET', url: '/docs/' })));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body).toBe(answers[0]!.body);
    }
    expect(answers[0]!.body).toContain('Capture Inbox API reference');
  });

  it('serves the same document as /api/v1/openapi.json, in JSON and YAML', async () => {
    const served = await t.app.inject({ method: 'GET', url: '/docs/json' });
    const api = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(served.statusCode).toBe(200);
    expect(served.json()).toEqual(api.json());
    const yaml = await t.app.inject({ method: 'GET', url: '/docs/yaml' });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.headers['content-type']).toBe('application/x-yaml');
    expect(yaml.body).toContain('title: Capture Inbox API');
  });

  it("passes a static file's validators through: a repeated request with If-None-Match gets 304", async () => {
    const first = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/css; charset=utf-8');
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    const again = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css', headers: { 'if-none-match': String(etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers HEAD with the length of the GET body and no body', async () => {
    const get = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css' });
    const head = await t.app.inject({ method: 'HEAD', url: '/docs/static/swagger-ui.css' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(Number(head.headers['content-length'])).toBe(get.rawPayload.length);
  });

  it("keeps the UI's own redirect, and answers what it lacks with this server's 404", async () => {
    const redirect = await t.app.inject({ method: 'GET', url: '/docs/static/index.html' });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('/docs/');
    expect(redirect.headers['content-type']).toBeUndefined();
    const missing = await t.app.inject({ method: 'GET', url: '/docs/static/no-such-file.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'not_found', message: 'no route for GET /docs/static/no-such-file.js' });
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
    expect(missing.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('leaves /docs out of the OpenAPI document', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(Object.keys(api.json().paths as Record<string, unknown>).filter((path) => path.startsWith('/docs'))).toEqual([]);
  });
});
