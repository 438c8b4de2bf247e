import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok, UNKNOWN_ID } from '../helpers/items.js';
import { client, createTestApp, createUser, type TestApp } from '../helpers/test-app.js';

/* Calendar feeds (contract "Calendar apps: CalDAV and feeds"): the API, and the public .ics read by ical.js. */

function components(text: string, name: string): ICAL.Component[] {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  expect(calendar.name).toBe('vcalendar');
  return calendar.getAllSubcomponents(name);
}

describe.each(DIALECTS)('feeds (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  const path = (url: string) => new URL(url).pathname;
  const fetchFeed = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: path(url), headers });

  it('serves a project as VTODOs: open todos only, with the CalDAV text, an ETag and 304', async () => {
    const { c } = await actor(t);
    const project = ok(await c.post('projects', { name: 'Garden' }));
    const due = await capture(c, 'water the roses', {
      parse: false,
      project_id: project.id,
      due_at: '2026-12-01T09:00:00.000Z',
      remind_at: '2026-12-01T08:30:00.000Z',
    });
    const done = await capture(c, 'buy seeds', { parse: false, project_id: project.id });
    ok(await c.patch(`items/${done.id}`, { status: 'done' }));
    await capture(c, 'in the inbox', { parse: false });

    const feed = ok(await c.post('feeds', { project_id: project.id }), 201).feed;
    expect(feed).toMatchObject({ project_id: project.id, filter_id: null, all: false, as: 'todos' });
    expect(feed.url).toMatch(/^http:\/\/localhost(:\d+)?\/feeds\/[A-Za-z0-9_-]{60,}\.ics$/);

    const res = await fetchFeed(feed.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const todos = components(res.body, 'vtodo');
    expect(todos.map((v) => v.getFirstPropertyValue('summary'))).toEqual(['water the roses']);
    expect(todos[0]!.getFirstPropertyValue('uid')).toBe(due.id);
    expect(String(todos[0]!.getFirstPropertyValue('due'))).toBe('2026-12-01T09:00:00Z');
    expect(todos[0]!.getAllSubcomponents('valarm')).toHaveLength(1);
    expect(new ICAL.Component(ICAL.parse(res.body) as unknown[]).getFirstPropertyValue('x-wr-calname')).toBe('Garden');

    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await fetchFeed(feed.url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // A change to an item in the feed is a new document and a new ETag.
    ok(await c.patch(`items/${due.id}`, { title: 'water the tulips' }));
    const changed = await fetchFeed(feed.url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('serves events: a VEVENT at due_at with its VALARM, all-day as a DATE, undated items left out', async () => {
    const { c } = await actor(t);
    const timed = await capture(c, 'dentist', { parse: false, due_at: '2026-12-02T14:00:00.000Z', remind_at: '2026-12-02T13:00:00.000Z' });
    await capture(c, 'pay rent', { parse: false, due_at: '2026-12-03T00:00:00.000Z', all_day: true });
    await capture(c, 'someday', { parse: false });
    const feed = ok(await c.post('feeds', { all: true, as: 'events' }), 201).feed;
    expect(feed).toMatchObject({ all: true, as: 'events', project_id: null, filter_id: null });

    const res = await fetchFeed(feed.url);
    expect(res.statusCode).toBe(200);
    expect(components(res.body, 'vtodo')).toEqual([]);
    const events = components(res.body, 'vevent');
    const bySummary = new Map(events.map((e) => [String(e.getFirstPropertyValue('summary')), e]));
    expect([...bySummary.keys()].sort()).toEqual(['dentist', 'pay rent']);
    const dentist = bySummary.get('dentist')!;
    expect(dentist.getFirstPropertyValue('uid')).toBe(timed.id);
    expect(String(dentist.getFirstPropertyValue('dtstart'))).toBe('2026-12-02T14:00:00Z');
    const alarm = dentist.getFirstSubcomponent('valarm')!;
    expect(String(alarm.getFirstPropertyValue('trigger'))).toBe('2026-12-02T13:00:00Z');
    const rent = bySummary.get('pay rent')!;
    const start = rent.getFirstProperty('dtstart')!;
    expect(start.type).toBe('date');
    expect(String(start.getFirstValue())).toBe('2026-12-03');
    expect(res.body).toContain('DTSTART;VALUE=DATE:20261203');
  });

  it("serves a saved filter's todos", async () => {
    const { c } = await actor(t);
    await capture(c, 'call Ana', { parse: false, tags: ['calls'] });
    await capture(c, 'write the report', { parse: false });
    const filter = ok(await c.post('filters', { name: 'Calls', query: '@calls' }), 201).filter;
    const feed = ok(await c.post('feeds', { filter_id: filter.id }), 201).feed;
    expect(feed.filter_id).toBe(filter.id);
    const res = await fetchFeed(feed.url);
    expect(components(res.body, 'vtodo').map((v) => v.getFirstPropertyValue('summary'))).toEqual(['call Ana']);
  });

  it('refuses bad input and changes nothing: two sources, none, malformed, unknown and other users’ ids', async () => {
    const { c } = await actor(t);
    const other = client(t.app, (await createUser(t)).token);
    const theirProject = ok(await other.post('projects', { name: 'Theirs' }));
    const theirFilter = ok(await other.post('filters', { name: 'Theirs', query: 'today' }), 201).filter;
    const mine = ok(await c.post('projects', { name: 'Mine' }));

    expectError(await c.post('feeds', { project_id: mine.id, all: true }), 400, 'bad_request');
    expectError(await c.post('feeds', {}), 400, 'bad_request');
    expectError(await c.post('feeds', { all: false }), 400, 'bad_request');
    expectError(await c.post('feeds', { all: true, as: 'journal' }), 400, 'bad_request');
    expectError(await c.post('feeds', { project_id: 'nope' }), 400, 'bad_request');
    expectError(await c.post('feeds', { project_id: UNKNOWN_ID }), 404, 'not_found');
    expectError(await c.post('feeds', { filter_id: UNKNOWN_ID }), 404, 'not_found');
    expectError(await c.post('feeds', { project_id: theirProject.id }), 404, 'not_found');
    expectError(await c.post('feeds', { filter_id: theirFilter.id }), 404, 'not_found');
    expect(ok(await c.get('feeds')).feeds).toEqual([]);
  });

  it('keeps at most 20 feeds a user: the 21st is 400', async () => {
    const { c } = await actor(t);
    for (let i = 0; i < 20; i += 1) ok(await c.post('feeds', { all: true }), 201);
    expectError(await c.post('feeds', { all: true }), 400, 'bad_request');
    expect(ok(await c.get('feeds')).feeds).toHaveLength(20);
  });

  it('rotates (the old URL stops at once), deletes (the URL stops), and hides another user’s feeds', async () => {
    const { c } = await actor(t);
    const other = client(t.app, (await createUser(t)).token);
    await capture(c, 'a todo', { parse: false });
    const feed = ok(await c.post('feeds', { all: true }), 201).feed;
    expect((await fetchFeed(feed.url)).statusCode).toBe(200);

    expectError(await other.post(`feeds/${feed.id}/rotate`), 404, 'not_found');
    expectError(await other.delete(`feeds/${feed.id}`), 404, 'not_found');
    expect(ok(await other.get('feeds')).feeds).toEqual([]);

    const rotated = ok(await c.post(`feeds/${feed.id}/rotate`)).feed;
    expect(rotated.id).toBe(feed.id);
    expect(rotated.url).not.toBe(feed.url);
    expect((await fetchFeed(feed.url)).statusCode).toBe(404);
    expect((await fetchFeed(rotated.url)).statusCode).toBe(200);
    expect(ok(await c.get('feeds')).feeds.map((f: { url: string }) => f.url)).toEqual([rotated.url]);

    expect(ok(await c.delete(`feeds/${feed.id}`))).toEqual({ ok: true });
    expect((await fetchFeed(rotated.url)).statusCode).toBe(404);
    expectError(await c.delete(`feeds/${feed.id}`), 404, 'not_found');
    expectError(await c.post(`feeds/${UNKNOWN_ID}/rotate`), 404, 'not_found');
  });

  it('answers 404 to guessed, truncated or malformed feed URLs, with no key needed for a real one', async () => {
    const { c } = await actor(t);
    const feed = ok(await c.post('feeds', { all: true }), 201).feed;
    const p = path(feed.url);
    const secret = p.slice('/feeds/'.length, -'.ics'.length);
    for (const url of [`/feeds/${secret.slice(0, -1)}.ics`, `/feeds/${secret}x.ics`, `/feeds/${secret}`, '/feeds/x.ics', `/feeds/${secret.slice(0, 36)}.ics`]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: p })).statusCode).toBe(200);
  });

  it('answers 404 once its project or filter is deleted; the list still shows the feed, to delete', async () => {
    const { c } = await actor(t);
    const project = ok(await c.post('projects', { name: 'Short-lived' }));
    const filter = ok(await c.post('filters', { name: 'Soon', query: 'today' }), 201).filter;
    const byProject = ok(await c.post('feeds', { project_id: project.id }), 201).feed;
    const byFilter = ok(await c.post('feeds', { filter_id: filter.id, as: 'events' }), 201).feed;
    expect((await fetchFeed(byProject.url)).statusCode).toBe(200);
    expect((await fetchFeed(byFilter.url)).statusCode).toBe(200);
    ok(await c.delete(`projects/${project.id}`));
    ok(await c.delete(`filters/${filter.id}`));
    expect((await fetchFeed(byProject.url)).statusCode).toBe(404);
    expect((await fetchFeed(byFilter.url)).statusCode).toBe(404);
    expect(
      ok(await c.get('feeds'))
        .feeds.map((f: { id: string }) => f.id)
        .sort(),
    ).toEqual([byProject.id, byFilter.id].sort());
  });

  it('needs the write scope to make a feed', async () => {
    const user = await createUser(t);
    const { token } = await t.services.keys.mint(user.id, 'read only', { scopes: ['read'] });
    expectError(await client(t.app, token).post('feeds', { all: true }), 403, 'insufficient_scope');
  });
});
