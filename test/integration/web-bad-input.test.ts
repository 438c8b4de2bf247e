import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { signedInBrowser, type WebClient } from '../helpers/web-client.js';

/** Odd input to the new pages is a page with a 4xx status and no change, never a 500. */
describe.each(DIALECTS)('web pages with odd input (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let itemId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const signed = await signedInBrowser(t);
    web = signed.web;
    await web.submit('/', '/inbox/capture', { text: 'An item', return: '/' });
    itemId = (await t.services.items.list(signed.userId, { limit: 1 })).items[0]!.id;
  });
  afterAll(async () => t?.close());

  it.each([
    ['/?project=not-a-uuid', 200],
    ['/?tag=%20', 200],
    ['/items?cursor=garbage', 400],
    ['/inbox?cursor=garbage', 400],
    ['/?organized=not-an-id&undo=garbage', 200],
    [`/?organized=${'0190f5e2-7c3a-7b1d-9e2f-123456789abc'}&undo=eyJ9`, 200],
    ['/projects/not-a-uuid', 404],
    ['/projects/0190f5e2-7c3a-7b1d-9e2f-123456789abc', 404],
    ['/inbox/items/not-a-uuid', 404],
    ['/share', 200],
    ['/account?done=%00', 400],
  ])('GET %s answers %i', async (url, status) => {
    const res = await web.get(url);
    expect(res.status, res.body.slice(0, 300)).toBe(status);
    expect(res.headers['content-type']).toContain('text/html');
  });

  it('refuses forged or odd posts without changing anything', async () => {
    const before = await fingerprint(t.services.db);
    expect((await web.postRaw(`/inbox/items/${itemId}`, { title: 'no token' })).status).toBe(403);
    expect((await web.submit('/', `/inbox/items/${itemId}/undo-organize`, { undo: 'not base64 json', return: '/' })).status).toBe(400);
    expect((await web.submit('/account', '/account/sessions/zzz/end')).status).toBe(404);
    expect((await web.submit('/', '/inbox/items/not-a-uuid/subtasks', { text: 'x' })).status).toBe(404);
    expect(
      (await web.submit(`/inbox/items/${itemId}`, `/inbox/items/${itemId}`, { title: 'T', project_id: 'not-a-uuid', status: 'weird', type: 'weird' })).status,
    ).toBe(400);
    expect((await web.submit('/projects', '/projects/not-a-uuid/rename', { name: 'x' })).status).toBe(404);
    expect((await web.submit('/projects', '/projects/not-a-uuid/delete')).status).toBe(404);
    expect(await fingerprint(t.services.db)).toEqual(before);
  });
});
