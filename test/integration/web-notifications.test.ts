import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { csrfOf, signedInBrowser, type WebClient } from '../helpers/web-client.js';
import { createPushSubscriber } from '../helpers/web-push-subscriber.js';

/** The web app's Notifications page and the item page's reminder, repeat and snooze forms, through HTTP. */
describe.each(DIALECTS)('web notifications and reminders (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let userId: string;
  const PAGE = '/account/notifications';

  beforeAll(async () => {
    // SMTP_URL is set (nothing is sent here), so email channels are offered.
    t = await createTestApp(dialect, { mail: { smtpUrl: 'smtp://127.0.0.1:9', from: 'Inbox <inbox@example.test>' } });
    t.clock.set(new Date('2026-11-26T10:00:00.000Z'));
    ({ web, userId } = await signedInBrowser(t));
    await t.services.users.updateMe(userId, { timezone: 'Europe/Berlin' });
  });
  afterAll(async () => t?.close());

  const user = async () => ({ ...(await t.services.users.me(userId)), keyId: null });

  it('POST /account/notifications/ntfy refuses a URL that breaks the destination rules, keeps it, and stores nothing', async () => {
    await web.get(PAGE); // The first page makes the server's VAPID keys.
    const before = await fingerprint(t.services.db);
    const res = await web.submit(PAGE, `${PAGE}/ntfy`, { url: 'https://localhost/topic', token: '' });
    expect(res.status).toBe(400);
    expect(res.body).toMatch(/id="ntfy_url-error">[^<]+/);
    expect(res.body).toContain('value="https://localhost/topic"');
    expect(await fingerprint(t.services.db)).toEqual(before);
  });

  it('POST /account/notifications/email adds an address; a bad one comes back with its message', async () => {
    const page = await web.get(PAGE);
    expect(page.body).toContain('action="/account/notifications/email"');
    const bad = await web.submit(PAGE, `${PAGE}/email`, { address: 'not-an-address' });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('Address must be an email address.');
    expect(bad.body).toContain('value="not-an-address"');
    const res = await web.submit(PAGE, `${PAGE}/email`, { address: 'me@example.test' });
    expect(res).toMatchObject({ status: 303, location: `${PAGE}?done=email` });
    const [channel] = await t.services.channels.list(userId);
    expect(channel).toMatchObject({ kind: 'email', address: 'me@example.test' });
    expect((await web.get(PAGE)).body).toContain(`id="channel-${channel!.id}"`);
    expect(await web.submit(PAGE, `${PAGE}/${channel!.id}/delete`)).toMatchObject({ status: 303, location: `${PAGE}?done=removed` });
    expect(await t.services.channels.list(userId)).toEqual([]);
    // Removed twice (another tab): the page says so.
    const again = await web.submit(PAGE, `${PAGE}/${channel!.id}/delete`);
    expect(again.status).toBe(404);
    expect(again.body).toContain('That channel is not there any more.');
  });

  it('POST /account/notifications/push takes the subscription as JSON under the session and its CSRF token', async () => {
    const csrf = csrfOf((await web.get(PAGE)).body);
    const keys = createPushSubscriber().keys;
    const post = (body: unknown) => web.postJson(`${PAGE}/push`, body);
    expect((await post({ subscription: { endpoint: 'https://push.example.test/x', keys } })).status).toBe(403);
    const bad = await post({ _csrf: csrf, subscription: { endpoint: 'http://push.example.test/x', keys } });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: 'bad_request', details: [{ field: 'subscription.endpoint' }] });
    const good = await post({ _csrf: csrf, subscription: { endpoint: 'https://push.example.test/x', keys } });
    expect(good.status).toBe(201);
    expect(JSON.parse(good.body)).toMatchObject({ channel: { kind: 'webpush', url: 'https://push.example.test', address: null } });
    const [channel] = await t.services.channels.list(userId);
    await t.services.channels.remove(userId, channel!.id);
  });

  it('POST /account/notifications/default sets reminder_default, and refuses what is not a number of minutes', async () => {
    expect((await web.submit(PAGE, `${PAGE}/default`, { reminder_default: 'soon' })).status).toBe(400);
    expect((await web.submit(PAGE, `${PAGE}/default`, { reminder_default: '20000' })).status).toBe(400);
    expect((await t.services.users.me(userId)).reminder_default).toBeNull();
    expect(await web.submit(PAGE, `${PAGE}/default`, { reminder_default: '30' })).toMatchObject({ status: 303 });
    expect((await t.services.users.me(userId)).reminder_default).toBe(30);
    expect(await web.submit(PAGE, `${PAGE}/default`, { reminder_default: '' })).toMatchObject({ status: 303 });
    expect((await t.services.users.me(userId)).reminder_default).toBeNull();
  });

  it('POST /inbox/items/:id/reminder sets remind_at and the repeat; a repeat without a due date or a stale form stores nothing', async () => {
    const { item } = await t.services.capture.capture(await user(), { text: 'Water the plants', due_at: '2026-11-27T08:00:00.000Z' });
    const { item: undated } = await t.services.capture.capture(await user(), { text: 'Someday' });
    const self = `/inbox/items/${item.id}`;
    const form = (body: string, changes: Record<string, string>) => ({
      _csrf: csrfOf(body),
      version: /name="version" value="([^"]+)"/.exec(body)![1]!.replaceAll('&quot;', '"'),
      remind_date: '',
      remind_time: '',
      repeat: 'none',
      every_days: '',
      repeat_from: 'due',
      ...changes,
    });
    const page = (await web.get(self)).body;
    const res = await web.postRaw(`${self}/reminder`, form(page, { remind_date: '2026-11-27', repeat: 'weekly', repeat_from: 'completion' }));
    expect(res).toMatchObject({ status: 303, location: `${self}?done=reminder#reminder` });
    expect(await t.services.items.get(userId, item.id)).toMatchObject({
      remind_at: '2026-11-27T08:00:00.000Z',
      recurrence: { rule: 'FREQ=WEEKLY', from: 'completion' },
    });
    const shown = (await web.get(self)).body;
    expect(shown).toContain('<dd id="repeat-words">Every week, counted from completion</dd>');
    expect(shown).toMatch(/<dd id="next-reminder"><time datetime="2026-11-27T08:00:00.000Z">Fri 27 Nov, 09:00<\/time>/);

    // The first form's version is stale now.
    const before = await fingerprint(t.services.db);
    const stale = await web.postRaw(`${self}/reminder`, form(page, { repeat: 'daily' }));
    expect(stale.status).toBe(409);
    expect(stale.body).toContain('changed after you opened it');
    const undatedPage = (await web.get(`/inbox/items/${undated.id}`)).body;
    const refused = await web.postRaw(`/inbox/items/${undated.id}/reminder`, form(undatedPage, { repeat: 'monthly' }));
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('A repeating item needs a due date');
    expect(await fingerprint(t.services.db)).toEqual(before);
  });

  it('POST /inbox/items/:id/snooze moves remind_at from now by a listed amount only', async () => {
    const { item } = await t.services.capture.capture(await user(), { text: 'Call Ana', due_at: '2026-11-27T08:00:00.000Z' });
    const self = `/inbox/items/${item.id}`;
    expect((await web.submit(self, `${self}/snooze`, { minutes: '7' })).status).toBe(400);
    expect(await web.submit(self, `${self}/snooze`, { minutes: '60' })).toMatchObject({ status: 303, location: `${self}?done=snoozed#reminder` });
    expect((await t.services.items.get(userId, item.id)).remind_at).toBe('2026-11-26T11:00:00.000Z');
  });

  it('GET /items/:id, the link in every reminder, opens the item page', async () => {
    expect(await web.get('/items/0199aaaa-0000-7000-8000-000000000000')).toMatchObject({
      status: 302,
      location: '/inbox/items/0199aaaa-0000-7000-8000-000000000000',
    });
  });
});
