import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../src/schemas/auth-user.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { signedInBrowser, type WebClient } from '../helpers/web-client.js';

/*
 * Today, Upcoming and the Inbox over HTTP on each database: the items service's reads by due date,
 * done today, open top-level items and subtasks (issue 33). The user lives in Asia/Tokyo, so "today"
 * is not UTC's day: the clock is Thursday 26 November 2026, 20:00 UTC = Friday 27 November, 05:00 in Tokyo.
 */
describe.each(DIALECTS)('Today, Upcoming and the Inbox (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let user: AuthUser;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(new Date('2026-11-26T20:00:00.000Z'));
    const signed = await signedInBrowser(t);
    web = signed.web;
    await t.services.users.updateMe(signed.userId, { timezone: 'Asia/Tokyo' });
    user = { id: signed.userId, email: '', plan: 'free', timezone: 'Asia/Tokyo', keyId: null };
  });
  afterAll(async () => t?.close());

  const add = async (text: string, extra: { due_at?: string; project_id?: string } = {}) => {
    t.clock.advance(1000);
    return (await t.services.capture.capture(user, { text, ...extra })).item;
  };
  /** The titles of a group's own rows (not the subtasks under them). */
  const titles = (body: string, group: string): string[] => {
    const section = new RegExp(`<section class="group" id="${group}"[\\s\\S]*?</section>`).exec(body)?.[0] ?? '';
    return [...section.replace(/<ul class="subtasks"[\s\S]*?<\/ul>/g, '').matchAll(/<p class="title"><a href="[^"]*">([^<]*)<\/a><\/p>/g)].map((m) => m[1]!);
  };

  it('splits overdue from due today in the user’s zone, soonest first, and collapses what was done today', async () => {
    await add('Due Thursday in Tokyo', { due_at: '2026-11-26T05:00:00.000Z' });
    await add('Due Friday 09:00 in Tokyo', { due_at: '2026-11-27T00:00:00.000Z' });
    await add('Due Friday 04:00 in Tokyo', { due_at: '2026-11-26T19:00:00.000Z' });
    await add('Due Saturday in Tokyo', { due_at: '2026-11-27T16:00:00.000Z' });
    await add('No date');
    const done = await add('Done this morning', { due_at: '2026-11-26T19:30:00.000Z' });
    await t.services.items.toggle(user.id, done.id);
    const archived = await add('Archived, due today', { due_at: '2026-11-27T01:00:00.000Z' });
    await t.services.items.archive(user.id, archived.id);

    const today = (await web.get('/')).body;
    // 04:00 today has passed at 05:00: overdue too, after yesterday's.
    expect(titles(today, 'overdue')).toEqual(['Due Thursday in Tokyo', 'Due Friday 04:00 in Tokyo']);
    expect(titles(today, 'due-today')).toEqual(['Due Friday 09:00 in Tokyo']);
    expect(today).toMatch(/<details class="done-today" id="done-today"><summary>Done today <span class="count">1<\/span>[\s\S]*Done this morning/);
    expect(today).not.toContain('Archived, due today');
    expect(today).not.toContain('No date');
  });

  it('groups the next 14 days by day, and leaves out what is later', async () => {
    await add('In 13 days', { due_at: '2026-12-10T03:00:00.000Z' });
    await add('In 15 days', { due_at: '2026-12-12T03:00:00.000Z' });
    const upcoming = (await web.get('/upcoming')).body;
    const headings = [...upcoming.matchAll(/<h2 class="group-heading" id="(day-\d+)-h">([^<]*)</g)].map((m) => [m[1], m[2]!.trim()]);
    expect(headings).toEqual([
      ['day-0', 'Today'],
      ['day-1', 'Tomorrow'],
      ['day-13', 'Thursday 10 December'],
    ]);
    expect(titles(upcoming, 'day-1')).toEqual(['Due Saturday in Tokyo']);
    expect(upcoming).not.toContain('In 15 days');
    // What is overdue heads Upcoming, as on Today (issue 47 item 10), not among the days.
    expect(titles(upcoming, 'overdue')).toEqual(['Due Thursday in Tokyo', 'Due Friday 04:00 in Tokyo']);
    expect(titles(upcoming, 'day-0')).not.toContain('Due Thursday in Tokyo');
  });

  it('lists the Inbox’s open top-level items newest first, each with its subtasks under it in order', async () => {
    const parent = await add('Parent in the Inbox');
    t.clock.advance(1000);
    await t.services.subtasks.add(user, parent.id, 'First step');
    t.clock.advance(1000);
    await t.services.subtasks.add(user, parent.id, 'Second step');
    const work = await t.services.projects.findOrCreate(user.id, 'Work');
    await add('Filed in Work', { project_id: work.id });
    const inbox = (await web.get('/inbox')).body;
    const top = titles(inbox, 'open');
    expect(top[0]).toBe('Parent in the Inbox');
    expect(top).not.toContain('First step');
    expect(top).not.toContain('Filed in Work');
    expect(top).not.toContain('Done this morning');
    expect(top).not.toContain('Archived, due today');
    const subtasks = /<ul class="subtasks"[\s\S]*?<\/ul>/.exec(inbox)![0];
    expect([...subtasks.matchAll(/<p class="title"><a href="[^"]*">([^<]*)<\/a><\/p>/g)].map((m) => m[1])).toEqual(['First step', 'Second step']);
  });

  it('saves a capture sent twice with one client_id once (the offline queue’s replay), and ignores a malformed id', async () => {
    const clientId = '0190f5e2-7c3a-7b1d-9e2f-0000000000aa';
    for (let i = 0; i < 2; i += 1) {
      const res = await web.submit('/inbox', '/inbox/capture', { text: 'Queued offline', client_id: clientId, return: '/inbox' });
      expect(res.status).toBe(303);
    }
    const found = (await t.services.search.search(user.id, { q: 'queued offline' })).items;
    expect(found).toHaveLength(1);
    await web.submit('/inbox', '/inbox/capture', { text: 'Odd id', client_id: 'not-a-uuid', return: '/inbox' });
    expect((await t.services.search.search(user.id, { q: 'odd id' })).items).toHaveLength(1);
  });
});
