import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, type Client, type TestApp } from '../helpers/test-app.js';
import { csrfOf, signedInBrowser, type WebClient } from '../helpers/web-client.js';

/** Contract "All-day dates" in the web app: the date only, overdue once the day is over, an "All day" choice. */
describe.each(DIALECTS)('web all-day dates (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let api: Client;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const signed = await signedInBrowser(t);
    web = signed.web;
    await t.services.users.updateMe(signed.userId, { timezone: 'Europe/Berlin' });
    api = client(t.app, (await t.services.keys.mint(signed.userId, 'edit')).token);
  });
  afterAll(async () => t?.close());

  /** The markup of the page's section with this id, up to its end. */
  const section = (page: string, id: string): string => page.split(`<section class="group" id="${id}"`)[1]?.split('</section>')[0] ?? '';

  it("Today: an all-day item due today sits under Due today with its date only; yesterday's is overdue", async () => {
    // Thursday 26 Nov 2026, 21:00 in Berlin: late, but the day is not over.
    t.clock.set('2026-11-26T20:00:00.000Z');
    const today = (await api.post('capture', { text: 'Pay the rent', due_at: '2026-11-26T10:00:00.000Z', all_day: true })).body as { id: string };
    const yesterday = (await api.post('capture', { text: 'Send the card', due_at: '2026-11-25T10:00:00.000Z', all_day: true })).body as { id: string };
    const timed = (await api.post('capture', { text: 'Call the bank', due_at: '2026-11-26T09:00:00.000Z' })).body as { id: string };
    const page = (await web.get('/')).body;
    const overdue = section(page, 'overdue');
    const dueToday = section(page, 'due-today');
    expect(dueToday).toContain(`item-${today.id}`);
    expect(overdue).toContain(`item-${yesterday.id}`);
    expect(overdue).toContain(`item-${timed.id}`);
    expect(overdue).not.toContain(`item-${today.id}`);
    // A list row carries the date only, without the full-date title (decision 0077); the row menu reads data-all-day.
    const row = page.split(`id="item-${today.id}"`)[1]!.split('</li>')[0]!;
    expect(row).toContain('<time datetime="2026-11-25T23:00:00.000Z">today</time>');
    expect(row).toMatch(/^[^>]* data-all-day>/);
  });

  it('the item form: "All day" stores the date alone; a time with it unticked is a timed due', async () => {
    t.clock.set('2026-11-26T10:00:00.000Z');
    const { id } = (await api.post('capture', { text: 'Dentist' })).body as { id: string };
    const send = async (changes: Record<string, string>) => {
      const body = (await web.get(`/inbox/items/${id}`)).body;
      expect(body).toContain('name="all_day"');
      const version = /name="version" value="([^"]+)"/.exec(body)![1]!.replaceAll('&quot;', '"');
      const form = {
        _csrf: csrfOf(body),
        version,
        title: 'Dentist',
        notes: '',
        type: 'todo',
        status: 'todo',
        due_date: '',
        due_time: '',
        project_id: '',
        new_tags: '',
        parent_id: '',
      };
      const res = await web.postRaw(`/inbox/items/${id}`, { ...form, ...changes });
      expect(res.status).toBe(303);
      return (await api.get(`items/${id}`)).body as { due_at: string | null; all_day: boolean };
    };
    expect(await send({ due_date: '2026-12-01', due_time: '15:30', all_day: 'on' })).toEqual(
      expect.objectContaining({ due_at: '2026-11-30T23:00:00.000Z', all_day: true }),
    );
    const page = (await web.get(`/inbox/items/${id}`)).body;
    expect(page).toMatch(/name="all_day" value="on"[^>]*checked/);
    expect(await send({ due_date: '2026-12-01', due_time: '15:30' })).toEqual(expect.objectContaining({ due_at: '2026-12-01T14:30:00.000Z', all_day: false }));
    expect(await send({ due_date: '2026-12-02', due_time: '' })).toEqual(expect.objectContaining({ due_at: '2026-12-01T23:00:00.000Z', all_day: true }));
    expect(await send({ due_date: '', due_time: '' })).toEqual(expect.objectContaining({ due_at: null, all_day: false }));
  });
});
