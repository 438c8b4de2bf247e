import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, type Client, type TestApp } from '../helpers/test-app.js';
import { signedInBrowser, type WebClient } from '../helpers/web-client.js';

/** The web inbox searches through the same service as GET /items/search: same words, same items. */
describe.each(DIALECTS)('GET / search agrees with GET /api/v1/items/search (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let api: Client;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const signed = await signedInBrowser(t);
    web = signed.web;
    api = client(t.app, (await t.services.keys.mint(signed.userId, 'parity')).token);
    for (const text of ['Über café', 'Buy milk', 'Milky way notes', 'Archived milk receipt']) {
      expect((await api.post('capture', { text })).status).toBe(201);
    }
    const archived = (await api.get('items/search?q=receipt')).body.items[0];
    expect((await api.post(`items/${archived.id}/archive`)).status).toBe(200);
  });
  afterAll(async () => t?.close());

  const webTitles = async (query: string) =>
    [...(await web.get(`/items?${query}`)).body.matchAll(/<p class="title"><a href="[^"]*">([^<]*)<\/a><\/p>/g)].map((m) => m[1]);
  const apiTitles = async (query: string) => ((await api.get(`items/search?${query}`)).body.items as { title: string }[]).map((i) => i.title);

  it.each([
    ['q=%C3%BCber', ['Über café']],
    ['q=ilk', []],
    ['q=milk', ['Milky way notes', 'Buy milk']],
    ['q=CAF', ['Über café']],
  ])('"%s" finds the same items in the active view as the API without archived ones', async (query, expected) => {
    expect(await webTitles(query)).toEqual(expected);
    const fromApi = (await apiTitles(query)).filter((title) => title !== 'Archived milk receipt');
    expect(fromApi).toEqual(expected);
  });

  it('show=archived is the API status=archived, show=all has no status condition', async () => {
    expect(await webTitles('q=milk&show=archived')).toEqual(await apiTitles('q=milk&status=archived'));
    expect(await webTitles('q=milk&show=archived')).toEqual(['Archived milk receipt']);
    expect(await webTitles('q=milk&show=all')).toEqual(await apiTitles('q=milk'));
  });
});
