import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Markdown link targets of a document: [text](target). */
const linksOf = (text: string): string[] => [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);

/** /llms.txt and /llms-full.txt (clients.md, fourth wave): built from docs/ and the OpenAPI document, public, every link answering. */
describe('/llms.txt', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    // What npm run build runs last: the pages come from the docs of this tree.
    execFileSync(process.execPath, [resolve(ROOT, 'scripts/build-llms.mjs')], { cwd: ROOT });
    t = await createTestApp('sqlite');
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  it('serves the index per llmstxt.org with no key: a title, a summary, sections of links', async () => {
    const res = await fetch(`${baseUrl}/llms.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^# Capture Inbox\n\n> .+\n/);
    expect(text).toMatch(/^## Docs$/m);
    expect(text).toMatch(/^## Optional$/m);
    expect(linksOf(text)).toEqual(expect.arrayContaining(['/llms/mcp.md', '/llms/cli.md', '/api/v1/openapi.json', '/llms-full.txt']));
  });

  it('serves the docs in one document with the endpoints of the OpenAPI document', async () => {
    const res = await fetch(`${baseUrl}/llms-full.txt`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('- `GET /api/v1/items/completed`: ');
    expect(text).toContain('- `POST /api/v1/items/bulk`: ');
    expect(text).toContain('# MCP server');
    expect(text).toContain('# Filters');
  });

  it('has only links that answer 200 with no key: root-relative ones on this server (external ones are not fetched)', async () => {
    const links = new Set<string>();
    for (const doc of ['/llms.txt', '/llms-full.txt']) for (const link of linksOf(await (await fetch(`${baseUrl}${doc}`)).text())) links.add(link);
    const local = [...links].filter((link) => link.startsWith('/'));
    expect(local.length).toBeGreaterThan(10);
    for (const link of [...links].filter((l) => !l.startsWith('/'))) expect(link, 'a link is root-relative or absolute').toMatch(/^(https?:\/\/|mailto:)/);
    for (const link of local) {
      const res = await fetch(`${baseUrl}${link.split('#')[0]}`, { redirect: 'manual' });
      expect(res.status, link).toBe(200);
    }
  });

  it('answers 404 for a page it does not serve, never a file outside its folder', async () => {
    for (const path of ['/llms/nope.md', '/llms/..%2Fpackage.json', '/llms/manifest.json', '/llms/%2e%2e%2fserver.js'])
      expect((await fetch(`${baseUrl}${path}`)).status, path).toBe(404);
  });
});
