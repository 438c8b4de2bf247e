import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { signedInBrowser, webClient, type WebClient } from '../helpers/web-client.js';

describe.each(DIALECTS)('web inbox (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ web, userId } = await signedInBrowser(t));
    // The first sign-up owns the server and is Pro; these pages are the Free plan's (no organizer).
    await t.services.users.setPlanById(userId, 'free');
  });
  afterAll(async () => t?.close());

  const items = () => t.services.items.list(userId, { limit: 200 }).then((p) => p.items);
  const itemByTitle = async (title: string) => (await items()).find((i) => i.title === title)!;
  const capture = async (text: string, extra: Record<string, string> = {}) => {
    const res = await web.submit('/', '/inbox/capture', { text, return: '/', ...extra });
    expect(res.status, res.body.slice(0, 300)).toBe(303);
    return res;
  };
  const act = (id: string, action: string, back = '/') => web.submit('/', `/inbox/items/${id}/${action}`, { return: back });

  it('GET / sends a signed-out browser to the sign-in page', async () => {
    const res = await webClient(t.app).get('/');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
  });

  it('POST /inbox/capture captures like the API (title, body, Inbox, todo) and returns to the page it came from', async () => {
    const res = await web.submit('/', '/inbox/capture', { text: 'Buy milk\n2%, not skim', return: '/?q=milk' });
    expect(res.location).toBe('/?q=milk');
    const item = await itemByTitle('Buy milk');
    expect(item).toMatchObject({ content_md: '2%, not skim', type: 'todo', status: 'todo', is_completed: false });
    const page = await web.get('/inbox');
    expect(page.body).toContain('Buy milk');
    expect(page.body).toContain(`id="item-${item.id}"`);
  });

  it('captures a note into a chosen project', async () => {
    const project = await t.services.projects.findOrCreate(userId, 'Reading');
    await capture('Dune', { type: 'note', project_id: project.id });
    expect(await itemByTitle('Dune')).toMatchObject({ type: 'note', status: 'backlog', project_id: project.id });
  });

  it('answers blank text or an unknown project with the inbox page, the message and the draft, writing nothing', async () => {
    const before = await fingerprint(t.services.db);
    const blank = await web.submit('/', '/inbox/capture', { text: '   ', return: '/' });
    expect(blank.status).toBe(400);
    expect(blank.body).toContain('Type something to capture.');
    const unknown = await web.submit('/', '/inbox/capture', { text: 'keep this draft', project_id: '0190f5e2-7c3a-7b1d-9e2f-123456789abc', return: '/' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('Project not found.');
    expect(unknown.body).toContain('>keep this draft</textarea>');
    expect(await fingerprint(t.services.db)).toEqual(before);
  });

  it('escapes what users typed', async () => {
    await capture('<script>alert(1)</script>\n<img src=x onerror=alert(2)>');
    const page = await web.get('/inbox');
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('toggles, archives, unarchives and deletes with the buttons of a row', async () => {
    await capture('Call the plumber');
    const { id } = await itemByTitle('Call the plumber');
    const toggled = await act(id, 'toggle');
    expect(toggled.status).toBe(303);
    expect(toggled.location).toBe(`/#item-${id}`);
    expect(await itemByTitle('Call the plumber')).toMatchObject({ is_completed: true, status: 'done' });
    // Done, it leaves the open lists and is found under Show: Done.
    expect((await web.get('/inbox')).body).not.toContain(`id="item-${id}"`);
    expect((await web.get('/items?show=done')).body).toMatch(new RegExp(`id="item-${id}"[\\s\\S]*?aria-pressed="true"`));
    await act(id, 'toggle');
    expect(await itemByTitle('Call the plumber')).toMatchObject({ is_completed: false, status: 'todo' });

    await act(id, 'archive');
    expect((await itemByTitle('Call the plumber')).status).toBe('archived');
    expect((await web.get('/items')).body).not.toContain(`id="item-${id}"`);
    expect((await web.get('/items?show=archived')).body).toContain(`id="item-${id}"`);
    expect((await web.get('/items?show=all')).body).toContain(`id="item-${id}"`);
    await act(id, 'unarchive', '/?show=archived');
    expect((await itemByTitle('Call the plumber')).status).toBe('todo');

    const res = await act(id, 'delete');
    expect(res.location).toBe('/');
    expect(await itemByTitle('Call the plumber')).toBeUndefined();
  });

  it("answers another user's item or an unknown action with a 404 page and leaves the item alone", async () => {
    const other = await signedInBrowser(t);
    await other.web.submit('/', '/inbox/capture', { text: 'not yours', return: '/' });
    const [theirs] = (await t.services.items.list(other.userId, {})).items;
    for (const action of ['toggle', 'archive', 'delete', 'explode']) {
      const res = await act(theirs!.id, action);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<h1>Not found</h1>');
    }
    expect(await t.services.items.get(other.userId, theirs!.id)).toMatchObject({ is_completed: false, status: 'todo' });
  });

  it('never redirects a form anywhere but the inbox', async () => {
    await capture('Bounce');
    const { id } = await itemByTitle('Bounce');
    for (const back of ['//evil.example/', 'https://evil.example/', '/settings/keys', '/\\evil']) {
      expect((await act(id, 'toggle', back)).location).toBe(`/#item-${id}`);
    }
    expect((await act(id, 'archive', '/?show=all&q=x')).location).toBe(`/?show=all&q=x#item-${id}`);
  });

  it('filters by project, tag and search words, newest first, and pages with the filters kept', async () => {
    const { web: w, userId: id } = await signedInBrowser(t);
    const work = await t.services.projects.findOrCreate(id, 'Work');
    for (const text of ['Quarterly report draft', 'Milk and eggs', 'Report the bug', 'Oat milk']) {
      await w.submit('/', '/inbox/capture', { text, return: '/', ...(text.includes('eport') ? { project_id: work.id } : {}) });
    }
    const all = (await t.services.items.list(id, {})).items;
    const oat = all.find((i) => i.title === 'Oat milk')!;
    await t.services.items.patch(id, oat.id, { tags: ['Shopping'] });

    const titles = (body: string) => [...body.matchAll(/<p class="title"><a href="[^"]*">([^<]*)<\/a><\/p>/g)].map((m) => m[1]);
    expect(titles((await w.get(`/items?project=${work.id}`)).body)).toEqual(['Report the bug', 'Quarterly report draft']);
    expect(titles((await w.get('/items?tag=shopping')).body)).toEqual(['Oat milk']);
    expect(titles((await w.get('/items?q=MILK')).body)).toEqual(['Oat milk', 'Milk and eggs']);
    expect(titles((await w.get('/items?q=milk+oat')).body)).toEqual(['Oat milk']);
    expect(titles((await w.get('/items?q=100%25_')).body)).toEqual([]);
    expect((await w.get('/items?q=nothing-like-this')).body).toContain('No items match these filters.');

    for (let i = 0; i < 52; i += 1) {
      t.clock.advance(1);
      await t.services.capture.capture({ id, email: '', plan: 'free', timezone: 'UTC', keyId: null }, { text: `bulk ${i}`, project_id: work.id });
    }
    const first = await w.get(`/items?project=${work.id}`);
    expect(titles(first.body)).toHaveLength(50);
    const next = /<a class="button" href="([^"]+)">Older items/.exec(first.body)![1]!.replaceAll('&amp;', '&');
    expect(next).toContain(`project=${work.id}`);
    const second = await w.get(next);
    expect(titles(second.body)).toEqual(['bulk 1', 'bulk 0', 'Report the bug', 'Quarterly report draft']);
    expect(second.body).not.toContain('Older items');
    const bad = await w.get('/items?cursor=garbage');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('Cursor is not valid here');
  });

  it('serves its stylesheet and script with a content hash and long caching', async () => {
    const page = await web.get('/');
    for (const path of [/href="(\/assets\/app\.[0-9a-f]{12}\.css)"/, /src="(\/assets\/app\.[0-9a-f]{12}\.js)"/].map((re) => re.exec(page.body)![1]!)) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });
});
