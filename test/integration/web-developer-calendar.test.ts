import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, type TestApp } from '../helpers/test-app.js';
import { signedInBrowser, webClient, type WebClient } from '../helpers/web-client.js';

/* Developer settings → "Connect a calendar app": per-app steps, an app password shown once, feeds made, rotated and deleted, all as plain forms. */

const PAGE = '/settings/calendar';
const basic = (token: string) => `Basic ${Buffer.from(`me:${token}`).toString('base64')}`;

describe.each(DIALECTS)('web: connect a calendar app (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let userId: string;
  let email: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { publicUrl: 'https://inbox.example.test' });
    ({ web, userId, email } = await signedInBrowser(t));
  });
  afterAll(async () => t?.close());

  const feedUrls = (page: string) => [...page.matchAll(/id="feed-url-\d+" type="text" readonly value="([^"]+)"/g)].map((m) => m[1]!);

  it('sends a signed-out browser to sign in, and is linked from developer settings', async () => {
    expect((await webClient(t.app).get(PAGE)).location).toBe('/login?next=%2Fsettings%2Fcalendar');
    expect((await web.get('/settings/keys')).body).toContain('<a href="/settings/calendar"><strong>Connect a calendar app</strong></a>');
  });

  it('shows the CalDAV address and the steps for Reminders, DAVx⁵ + Tasks.org and Thunderbird', async () => {
    const page = await web.get(PAGE);
    expect(page.status).toBe(200);
    expect(page.body).toContain('value="https://inbox.example.test/dav/"');
    expect(page.body).toContain('<code>inbox.example.test</code>');
    expect(page.body).toContain('<code>https://inbox.example.test/dav/principal/</code>');
    for (const app of ['Reminders', 'DAVx⁵', 'Tasks.org', 'Thunderbird']) expect(page.body).toContain(app);
    expect(page.body).toContain(`<dd>${email}</dd>`);
  });

  it('makes an app password (read, write, "Calendar app") shown once, which signs in to CalDAV', async () => {
    const res = await web.submit(PAGE, `${PAGE}/key`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const token = /id="app-password"[^>]*>([^<]+)<\/textarea>/.exec(res.body)?.[1];
    expect(token).toMatch(/^cin_/);
    const listed = (await t.services.keys.list(userId)).find((k) => token!.startsWith(`cin_${k.prefix}_`));
    expect(listed).toMatchObject({ label: 'Calendar app', scopes: ['read', 'write'] });
    const dav = await t.app.inject({ method: 'PROPFIND' as 'GET', url: '/dav/', headers: { authorization: basic(token!), depth: '0' } });
    expect(dav.statusCode).toBe(207);
    expect((await web.get(PAGE)).body).not.toContain(token!);
  });

  it('makes, rotates and deletes feeds; the URLs work and stop as they should', async () => {
    const api = client(t.app, (await t.services.keys.mint(userId, 'test')).token);
    await api.post('capture', { text: 'dentist', parse: false, due_at: '2026-12-02T14:00:00.000Z' });
    const made = await web.submit(PAGE, `${PAGE}/feeds`, { source: 'all', as: 'events' });
    expect(made.status).toBe(303);
    expect(made.location).toBe(`${PAGE}?done=made`);
    const page = await web.get(made.location!);
    expect(page.body).toContain('Feed made.');
    expect(page.body).toContain('Everything, as events');
    const [url] = feedUrls(page.body);
    expect(url).toMatch(/^https:\/\/inbox\.example\.test\/feeds\/.+\.ics$/);
    const path = new URL(url!).pathname;
    const read = await t.app.inject({ method: 'GET', url: path });
    expect(read.statusCode).toBe(200);
    expect(read.body).toContain('SUMMARY:dentist');

    const feedId = /action="\/settings\/calendar\/feeds\/([0-9a-f-]{36})\/rotate"/.exec(page.body)![1]!;
    const rotated = await web.submit(PAGE, `${PAGE}/feeds/${feedId}/rotate`);
    expect(rotated.location).toBe(`${PAGE}?done=rotated`);
    const [newUrl] = feedUrls((await web.get(PAGE)).body);
    expect(newUrl).not.toBe(url);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);

    const deleted = await web.submit(PAGE, `${PAGE}/feeds/${feedId}/delete`);
    expect(deleted.location).toBe(`${PAGE}?done=deleted`);
    expect(feedUrls((await web.get(PAGE)).body)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: new URL(newUrl!).pathname })).statusCode).toBe(404);
  });

  it('offers projects and saved filters as sources, and answers bad forms with the page and a message', async () => {
    const api = client(t.app, (await t.services.keys.mint(userId, 'test')).token);
    const filter = (await api.post('filters', { name: 'Calls', query: '@calls' })).body.filter;
    const page = (await web.get(PAGE)).body;
    expect(page).toContain(`<option value="filter:${filter.id}">Filter Calls</option>`);
    expect(page).toMatch(/<option value="project:[0-9a-f-]{36}">Project Inbox<\/option>/);

    const bad = await web.submit(PAGE, `${PAGE}/feeds`, { source: 'nonsense', as: 'events' });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('Choose what the feed shows and how.');
    const unknown = await web.submit(PAGE, `${PAGE}/feeds`, { source: 'project:0190f5e2-7c3a-7b1d-9e2f-123456789abc', as: 'todos' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('role="alert"');
    const noCsrf = await web.postRaw(`${PAGE}/feeds`, { source: 'all', as: 'todos' });
    expect(noCsrf.status).toBe(403);
    expect(await t.services.feeds.list(userId)).toEqual([]);
  });
});
