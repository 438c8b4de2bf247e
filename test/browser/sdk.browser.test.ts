import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../helpers/test-app.js';
import { useBrowserApp } from './browser-app.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

const SDK_ENTRY = join(resolve(import.meta.dirname, '../..'), 'packages/sdk/dist/index.js');

/* The SDK bundled for browsers (esbuild, platform browser) and run in chromium against the server. */
describe.skipIf(lacking(CHROMIUM))('@capture-inbox/sdk in chromium', () => {
  const t = useBrowserApp();
  let user: TestUser;
  let bundle: string;

  beforeAll(async () => {
    user = await createUser(t);
    const out = await build({
      entryPoints: [SDK_ENTRY],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'CaptureInboxSdk',
      write: false,
      logLevel: 'silent',
    });
    bundle = out.outputFiles[0]!.text;
  }, 60_000);

  it('captures, reads the ETag, pages and refuses with ApiError, from a page of the same origin', async () => {
    // The bundle is injected as a script; the pages' CSP is about the app's own scripts, not this test's.
    const context = await t.browser.newContext({ bypassCSP: true });
    const origin = new URL(t.baseUrl).origin;
    await context.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort()));
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/login`);
    await page.addScriptTag({ content: bundle });
    const result = await page.evaluate(async (token) => {
      type Sdk = typeof import('@capture-inbox/sdk');
      const sdk = (globalThis as unknown as { CaptureInboxSdk: Sdk }).CaptureInboxSdk;
      const inbox = sdk.createClient({ baseUrl: (globalThis as unknown as { location: { origin: string } }).location.origin, token });
      const item = await inbox.items.capture({ text: 'captured in a browser' });
      const read = await inbox.items.get(item.id);
      const titles: string[] = [];
      for await (const each of inbox.items.listAll({ limit: 1 })) titles.push(each.title ?? '');
      const refused = await inbox.items.get('00000000-0000-7000-8000-000000000000').catch((e: unknown) => e);
      return {
        title: read.title,
        etag: sdk.etagOf(read) ?? null,
        titles,
        refused: refused instanceof sdk.ApiError ? `${refused.status} ${refused.error}` : String(refused),
      };
    }, user.token);
    expect(result).toEqual({ title: 'captured in a browser', etag: expect.stringMatching(/^"/), titles: ['captured in a browser'], refused: '404 not_found' });
    await context.close();
  }, 60_000);
});
