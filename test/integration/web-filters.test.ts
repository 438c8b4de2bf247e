import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../src/schemas/auth-user.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { csrfOf, signedInBrowser, type WebClient } from '../helpers/web-client.js';

/*
 * The web app's filter pages (issue 48) over HTTP, without the page script: /filter?q= lists what a
 * query picks a page at a time and shows the parser's error with its place; "Save this view" makes
 * a saved filter that the navigation lists beside Today, Upcoming and the Inbox; a saved view's page,
 * edit, reorder and delete. The clock is Thursday 26 November 2026, 10:00 UTC; the user is in UTC.
 */
describe.each(DIALECTS)('web filter pages (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let user: AuthUser;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(new Date('2026-11-26T10:00:00.000Z'));
    const signed = await signedInBrowser(t);
    web = signed.web;
    await t.services.users.updateMe(signed.userId, { timezone: 'UTC' });
    user = { id: signed.userId, email: '', plan: 'free', timezone: 'UTC', keyId: null };
    const work = await t.services.projects.findOrCreate(user.id, 'Work');
    const add = async (text: string, extra: { due_at?: string; project_id?: string; tags?: string[] } = {}) => {
      t.clock.advance(1000);
      return (await t.services.capture.capture(user, { text, ...extra })).item;
    };
    await add('Call the bank', { project_id: work.id, tags: ['calls'] });
    await add('Call Ana', { tags: ['calls'] });
    await add('Overdue report', { due_at: '2026-11-25T09:00:00.000Z', project_id: work.id });
    await add('Due today', { due_at: '2026-11-26T15:00:00.000Z' });
    for (let i = 0; i < 55; i += 1) await add(`Later ${i}`, { due_at: '2026-12-20T09:00:00.000Z' });
  });
  afterAll(async () => t?.close());

  const titles = (body: string): string[] => [...body.matchAll(/<p class="title"><a href="\/inbox\/items\/[^"]*">([^<]*)<\/a><\/p>/g)].map((m) => m[1]!);
  const navViews = (body: string): string[] =>
    [
      ...(/<nav aria-label="Main"[^>]*>[\s\S]*?<\/nav>/.exec(body)?.[0] ?? '').matchAll(
        /<a class="view" href="\/filters\/([^"]+)"[^>]*>(?:<svg[\s\S]*?<\/svg>)?([^<]*)<\/a>/g,
      ),
    ].map((m) => m[2]!);

  it('lists what a query picks, in due order, a page at a time', async () => {
    const page = await web.get(`/filter?q=${encodeURIComponent('today | overdue')}`);
    expect(page.status).toBe(200);
    expect(titles(page.body)).toEqual(['Overdue report', 'Due today']);
    expect(page.body).toContain('value="today | overdue"');

    const work = await web.get(`/filter?q=${encodeURIComponent('#Work & @calls')}`);
    expect(titles(work.body)).toEqual(['Call the bank']);

    const first = await web.get(`/filter?q=${encodeURIComponent('7 days | due after: today')}`);
    expect(titles(first.body)).toHaveLength(50);
    const next = /<nav class="pager"[^>]*><a class="button" href="([^"]+)"/.exec(first.body)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toBeDefined();
    const second = await web.get(next!);
    expect(titles(second.body)).toHaveLength(6);
    expect(second.body).not.toContain('class="pager"');
  });

  it('answers a query that does not read with the message and a caret under its place, and lists nothing', async () => {
    const page = await web.get(`/filter?q=${encodeURIComponent('today & #')}`);
    expect(page.status).toBe(400);
    expect(page.body).toContain('<p class="field-error">Expected a project name after #.</p>');
    // "today & #" fails at 9, the end: nine spaces, then the caret.
    expect(page.body).toContain(`<p class="caret-line" aria-hidden="true">${' '.repeat(9)}^</p>`);
    expect(page.body).toContain('aria-invalid="true"');
    expect(titles(page.body)).toEqual([]);

    const unknown = await web.get(`/filter?q=${encodeURIComponent('#Nowhere')}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toContain('There is no project named “Nowhere”'.replace(/[“”]/g, '"').replace(/"/g, '&quot;'));
  });

  it('saves a view, lists it in the navigation, shows its items, and edits, reorders and deletes it', async () => {
    const from = `/filter?q=${encodeURIComponent('#Work & @calls')}`;
    const refused = await web.submit(from, '/filters', { name: '  ', query: '#Work & @calls', color: '' });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('id="view-name-error"');

    const saved = await web.submit(from, '/filters', { name: 'Work calls', query: '#Work & @calls', color: '#1971c2' });
    expect(saved.status).toBe(303);
    const id = saved.location!.replace('/filters/', '');
    const view = await web.get(saved.location!);
    expect(view.status).toBe(200);
    expect(titles(view.body)).toEqual(['Call the bank']);
    expect(navViews(view.body)).toEqual(['Work calls']);
    expect(view.body).toMatch(new RegExp(`<a class="view" href="/filters/${id}" aria-current="page"><svg[^>]*><circle[^>]*fill="#1971c2"`));
    // Every page has it, Today's too.
    expect(navViews((await web.get('/')).body)).toEqual(['Work calls']);

    const other = await web.submit(`/filter?q=overdue`, '/filters', { name: 'Late', query: 'overdue', color: '' });
    const lateId = other.location!.replace('/filters/', '');
    expect(navViews((await web.get('/filters')).body)).toEqual(['Work calls', 'Late']);
    const moved = await web.submit('/filters', `/filters/${lateId}/move`, { position: '0' });
    expect(moved.location).toBe(`/filters#view-${lateId}`);
    expect(navViews((await web.get('/filters')).body)).toEqual(['Late', 'Work calls']);

    const badEdit = await web.submit(`/filters/${id}`, `/filters/${id}`, { name: 'Work calls', query: '#Work & (', color: '#1971c2' });
    expect(badEdit.status).toBe(400);
    expect(badEdit.body).toContain('id="edit-query-error"');
    expect(badEdit.body).toContain(`${' '.repeat(9)}^</p>`);
    expect((await t.services.filters.get(user.id, id)).query).toBe('#Work & @calls');

    const edited = await web.submit(`/filters/${id}`, `/filters/${id}`, { name: 'Calls', query: '@calls', color: '' });
    expect(edited.status).toBe(303);
    const after = await web.get(`/filters/${id}`);
    expect(titles(after.body).sort()).toEqual(['Call Ana', 'Call the bank']);
    expect(navViews(after.body)).toEqual(['Late', 'Calls']);

    const deleted = await web.submit(`/filters/${id}`, `/filters/${id}/delete`);
    expect(deleted.location).toBe('/filters');
    expect(navViews((await web.get('/')).body)).toEqual(['Late']);
    expect((await web.get(`/filters/${id}`)).status).toBe(404);
    await web.submit('/filters', `/filters/${lateId}/delete`);
  });

  it('brings a row’s action back to the filter page it was sent from', async () => {
    const self = `/filter?q=${encodeURIComponent('today | overdue')}`;
    const page = await web.get(self);
    const id = /id="item-([0-9a-f-]{36})"/.exec(page.body)![1]!;
    const done = await web.postRaw(`/inbox/items/${id}/toggle`, { _csrf: csrfOf(page.body), return: self });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${self}#item-${id}`);
    expect(titles((await web.get(self)).body)).toHaveLength(1);
  });

  it('sends a signed-out browser to sign in, and refuses another user’s view', async () => {
    const { web: stranger } = await signedInBrowser(t);
    const mine = await t.services.filters.create(user, { name: 'Mine', query: 'today' });
    expect((await stranger.get(`/filters/${mine.id}`)).status).toBe(404);
    expect(navViews((await stranger.get('/')).body)).toEqual([]);
    const out = await t.app.inject({ method: 'GET', url: '/filter?q=today' });
    expect(out.statusCode).toBe(303);
  });
});
