import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { signedInBrowser } from '../helpers/web-client.js';

/*
 * What the server does for the offline outbox's replay (decision 0085) and Upcoming's "reschedule
 * all overdue" (issue 47 item 10), over HTTP on both dialects. Thursday 26 November 2026, 11:00
 * in Berlin.
 */
describe.each(DIALECTS)('the offline replay and Upcoming over HTTP (%s)', (dialect) => {
  let t: TestApp;
  const IN_PLACE = { 'cin-in-place': '1' };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(new Date('2026-11-26T10:00:00.000Z'));
  });
  afterAll(async () => t?.close());

  async function browser() {
    const signed = await signedInBrowser(t);
    await t.services.users.updateMe(signed.userId, { timezone: 'Europe/Berlin' });
    // The server's first account is its owner, on Pro, whose captures the organizer reads: these are plain captures.
    await t.services.users.setPlanById(signed.userId, 'free');
    return signed;
  }

  it('reads a replayed capture’s dates at its typed_at, answers where it went in place, and saves one item per client id', async () => {
    const { web, userId } = await browser();
    const fields = { text: 'Call mum tomorrow', return: '/inbox', client_id: '0193a000-0000-7000-8000-000000000001', typed_at: '2026-11-24T18:00:00.000Z' };
    const res = await web.submit('/inbox', '/inbox/capture', fields, IN_PLACE);
    expect(res.status).toBe(200);
    const answer = JSON.parse(res.body) as { message: string; undo_form: { url: string; fields: string[][] }; item: { id: string; version: string } };
    // Typed on Tuesday evening: "tomorrow" is Wednesday 25 November, not the Friday after the sync.
    // Said as its row says it (overdue at the sync), with the day (issue 47: the note and the row read alike).
    expect(answer.message).toBe('Saved “Call mum” in Inbox, overdue 1 day (due Wed 25 Nov).');
    expect(answer.undo_form).toEqual({ url: `/inbox/items/${answer.item.id}/delete`, fields: [] });
    expect(await t.services.items.get(userId, answer.item.id)).toMatchObject({ due_at: '2026-11-24T23:00:00.000Z', all_day: true });
    // The same capture again (a replay after a lost answer) is the same item.
    const again = await web.submit('/inbox', '/inbox/capture', fields, IN_PLACE);
    expect((JSON.parse(again.body) as { item: { id: string } }).item.id).toBe(answer.item.id);
    expect((await t.services.items.list(userId, {})).items).toHaveLength(1);
  });

  it('does not believe a typed_at in the future or a month old: the dates are read at the sync', async () => {
    const { web, userId } = await browser();
    const typed: [string, string][] = [
      ['ahead', '2026-11-28T10:00:00.000Z'],
      ['old', '2026-10-01T10:00:00.000Z'],
      ['garbled', 'not a time'],
    ];
    for (const [word, typedAt] of typed) {
      await web.submit('/inbox', '/inbox/capture', { text: `Pay tomorrow, ${word}`, return: '/inbox', typed_at: typedAt }, IN_PLACE);
    }
    const dues = (await t.services.items.list(userId, {})).items.map((i) => i.due_at);
    expect(dues).toEqual(['2026-11-26T23:00:00.000Z', '2026-11-26T23:00:00.000Z', '2026-11-26T23:00:00.000Z']);
  });

  it('refuses an action made on an older version (409) and applies one made on the version the last answer gave', async () => {
    const { web, userId } = await browser();
    const user = { id: userId, email: '', plan: 'free' as const, timezone: 'Europe/Berlin', keyId: null };
    const item = (await t.services.capture.capture(user, { text: 'Plan trip' })).item;
    const page = await web.get('/inbox');
    const version = /data-version="([^"]+)"/.exec(page.body)![1]!.replaceAll('&quot;', '"');
    const tick = await web.submit('/inbox', `/inbox/items/${item.id}/toggle`, { return: '/inbox', version }, IN_PLACE);
    expect(tick.status).toBe(200);
    const next = (JSON.parse(tick.body) as { item: { version: string } }).item.version;
    // The old version again (a second replay of the same tick) changes nothing.
    const stale = await web.submit('/inbox', `/inbox/items/${item.id}/toggle`, { return: '/inbox', version }, IN_PLACE);
    expect(stale.status).toBe(409);
    expect((await t.services.items.get(userId, item.id)).is_completed).toBe(true);
    const archive = await web.submit('/inbox', `/inbox/items/${item.id}/archive`, { return: '/inbox', version: next }, IN_PLACE);
    expect(archive.status).toBe(200);
    expect((await t.services.items.get(userId, item.id)).status).toBe('archived');
  });

  it('reschedules every overdue item to today in one request, and its Undo puts each back', async () => {
    const { web, userId } = await browser();
    const user = { id: userId, email: '', plan: 'free' as const, timezone: 'Europe/Berlin', keyId: null };
    const early = (await t.services.capture.capture(user, { text: 'Early', due_at: '2026-11-25T06:00:00.000Z' })).item;
    const late = (await t.services.capture.capture(user, { text: 'Late', due_at: '2026-11-24T18:00:00.000Z' })).item;
    const page = await web.get('/upcoming');
    expect(page.body).toContain('id="overdue-h">Overdue <span class="count">2</span>');
    const res = await web.submit('/upcoming', '/upcoming/reschedule-overdue', {}, IN_PLACE);
    const answer = JSON.parse(res.body) as { message: string; undo: string };
    expect(answer.message).toBe('Rescheduled 2 overdue items to today.');
    // 07:00 has passed today: due today as a day; 19:00 is still ahead: kept.
    expect(await t.services.items.get(userId, early.id)).toMatchObject({ due_at: '2026-11-25T23:00:00.000Z', all_day: true });
    expect(await t.services.items.get(userId, late.id)).toMatchObject({ due_at: '2026-11-26T18:00:00.000Z', all_day: false });
    const undone = await web.submit('/upcoming', '/upcoming/reschedule-overdue/undo', { undo: answer.undo }, IN_PLACE);
    expect(JSON.parse(undone.body)).toEqual({ message: 'Undone: 2 items are due as before.', undo: null });
    expect((await t.services.items.get(userId, early.id)).due_at).toBe('2026-11-25T06:00:00.000Z');
    expect((await t.services.items.get(userId, late.id)).due_at).toBe('2026-11-24T18:00:00.000Z');
  });

  it('shows the app’s navigation on a signed-in 404, and keeps the API’s 404 JSON', async () => {
    const { web } = await browser();
    const page = await web.get('/no-such-page');
    expect(page.status).toBe(404);
    expect(page.body).toContain('<a href="/upcoming"');
    expect(page.body).not.toContain('>Sign in<');
    const api = await web.get('/api/v1/no-such-thing', { accept: 'application/json' });
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body)).toMatchObject({ error: 'not_found' });
  });

  it('serves the app’s offline page for the service worker to keep', async () => {
    const { web } = await browser();
    const page = await web.get('/offline');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>You are offline</h1>');
  });
});
