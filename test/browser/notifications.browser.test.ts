import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { sessionUserOf, THURSDAY, useBrowserApp } from './browser-app.js';
import { DESKTOP, PHONE, screenshot } from './chromium.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';
import { createTestCertificates } from '../helpers/test-ca.js';
import { waitFor } from '../helpers/wait.js';
import { createPushSubscriber, verifyVapid } from '../helpers/web-push-subscriber.js';

/*
 * Issue 31's web client: the Notifications page (ntfy added, tested and removed against a local
 * ntfy-shaped HTTPS receiver; web push for this browser; the default reminder), and reminder,
 * repeat and snooze on the item page, shown on the item's row.
 */
/** What the service worker test touches of its global scope (the test compiles without the WebWorker lib). */
interface WorkerScope {
  registration: { getNotifications(): Promise<Array<{ title: string; body: string; data: { url: string }; close(): void }>> };
  clients: { openWindow(url: string): Promise<unknown> };
  dispatchEvent(event: Event): boolean;
}

describe.skipIf(lacking(CHROMIUM))('notifications and reminders in chromium', () => {
  let receiver: HttpsReceiver;
  let caPem: string;

  beforeAll(async () => {
    const certs = await createTestCertificates();
    caPem = certs.caPem;
    receiver = await new HttpsReceiver(certs, () => ({ status: 200 })).start();
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
  });
  // The receiver is on loopback: the test lifts the private-address rule, as the integration tests do.
  const t = useBrowserApp(() => ({
    app: { webhooks: { ca: [caPem], delivery: { allowPrivateTargets: true, timeoutMs: 5_000, retryDelaysMs: [1000, 5000] } } },
    at: THURSDAY,
  }));

  /** The reminder form sits behind "Change reminder or repeat" unless it came back with an error. */
  async function openReminderForm(page: Page): Promise<void> {
    const change = page.locator('#reminder details.change');
    if ((await change.getAttribute('open')) === null) await change.locator('summary').click();
  }

  const accessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

  async function accessibleAtBothWidths(page: Page): Promise<void> {
    await accessible(page);
    await page.setViewportSize(PHONE);
    await accessible(page);
    await page.setViewportSize(DESKTOP);
  }

  it('adds an ntfy topic from Account › Notifications, sends it a test, keeps a refused URL in the form, and removes it', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    await page.goto('/account');
    await page.getByRole('link', { name: 'Notification settings' }).click();
    await page.waitForURL(`${t.baseUrl}/account/notifications`);
    // The server has no SMTP_URL: the page says so instead of offering a form that would be refused.
    expect(await page.locator('#email-off').textContent()).toContain('SMTP_URL');
    expect(await page.locator('input#address').count()).toBe(0);

    // A topic that breaks the destination rules is refused with the service's reason, the URL kept.
    await page.getByLabel('Topic URL').fill('http://ntfy.sh/plain-http');
    await page.getByRole('button', { name: 'Add ntfy topic' }).click();
    expect(await page.locator('#ntfy_url-error').textContent()).toMatch(/https/i);
    expect(await page.getByLabel('Topic URL').inputValue()).toBe('http://ntfy.sh/plain-http');
    expect(await t.services.channels.list(userId)).toEqual([]);

    const topic = receiver.url('/reminders-topic');
    await page.getByLabel('Topic URL').fill(topic);
    await page.getByLabel('Access token (optional)').fill('tk_browser');
    await page.getByRole('button', { name: 'Add ntfy topic' }).click();
    await page.waitForURL(`${t.baseUrl}/account/notifications?done=ntfy`);
    expect(await page.getByRole('status').first().textContent()).toContain('ntfy topic was added');
    const [channel] = await t.services.channels.list(userId);
    expect(channel).toMatchObject({ kind: 'ntfy', url: topic });
    expect(await page.locator(`#channel-${channel!.id}`).textContent()).toContain(topic);

    await page.getByRole('button', { name: `Send a test to ntfy ${topic}` }).click();
    await receiver.waitFor(1, '/reminders-topic');
    const [sent] = receiver.to('/reminders-topic');
    expect(sent!.headers.title).toBe('Test notification from Capture Inbox');
    expect(sent!.headers.authorization).toBe('Bearer tk_browser');
    expect(await page.locator('.alert.success').textContent()).toContain('Test sent (it answered 200)');
    await accessibleAtBothWidths(page);
    await screenshot(page, 'notifications');
    // Nothing is wider than a phone (a long topic URL wraps).
    await page.setViewportSize(PHONE);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize(DESKTOP);

    // A topic whose server refuses: the page says so.
    receiver.responder = () => ({ status: 403 });
    await page.getByRole('button', { name: `Send a test to ntfy ${topic}` }).click();
    expect(await page.locator('.alert.error').textContent()).toContain('did not go through: it answered 403');
    receiver.responder = () => ({ status: 200 });

    await page.getByRole('button', { name: `Remove ntfy ${topic}` }).click();
    await page.waitForURL(`${t.baseUrl}/account/notifications?done=removed`);
    expect(await t.services.channels.list(userId)).toEqual([]);
    expect(await page.locator('#channels').textContent()).toContain('Nowhere yet');
  }, 90_000);

  it('sets the default reminder on /me and shows it chosen', async () => {
    const { page, userId } = await t.signedUp(PHONE);
    await page.goto('/account/notifications');
    expect(await page.getByLabel('When an item gets a due date, remind me').inputValue()).toBe('');
    await page.getByLabel('When an item gets a due date, remind me').selectOption({ label: '15 minutes before' });
    await page.getByRole('button', { name: 'Save default' }).click();
    await page.waitForURL(`${t.baseUrl}/account/notifications?done=default`);
    expect((await t.services.users.me(userId)).reminder_default).toBe(15);
    expect(await page.getByLabel('When an item gets a due date, remind me').inputValue()).toBe('15');
    // A value set through the API that is not on the list is shown as it is, not lost on the next save.
    await t.services.users.updateMe(userId, { reminder_default: 45 });
    await page.reload();
    expect(await page.locator('#reminder_default option:checked').textContent()).toBe('45 minutes before');
    await page.getByLabel('When an item gets a due date, remind me').selectOption('');
    await page.getByRole('button', { name: 'Save default' }).click();
    await page.waitForURL(/done=default/);
    expect((await t.services.users.me(userId)).reminder_default).toBeNull();
    await accessibleAtBothWidths(page);
  }, 60_000);

  it('turns on push for this browser: chromium subscribes if it can; the subscription route stores a webpush channel that gets a decryptable, VAPID-signed test', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    await page.context().grantPermissions(['notifications'], { origin: t.baseUrl });
    await page.goto('/account/notifications');
    // Chromium has the Push API and 127.0.0.1 is a secure context: the button shows.
    await page.getByRole('button', { name: 'Turn on push for this browser' }).click();
    const outcome = await waitFor(
      async () => {
        if (page.url().includes('done=push')) return 'subscribed';
        const text = (await page.locator('#push-state').textContent()) ?? '';
        return text.startsWith('Push could not be turned on') ? text : false;
      },
      { timeoutMs: 20_000, what: 'the push button to finish' },
    );
    console.info(`chromium push subscribe: ${outcome}`);
    if (outcome === 'subscribed') {
      // A push service answered (not expected headless, with no network): the channel is there.
      expect((await t.services.channels.list(userId)).map((c) => c.kind)).toEqual(['webpush']);
    } else {
      // Headless chromium has no push service to register with (Google's FCM, unreachable and
      // unkeyed here): the page says so and keeps the button; nothing is stored.
      expect(await page.getByRole('button', { name: 'Turn on push for this browser' }).isEnabled()).toBe(true);
      expect(await t.services.channels.list(userId)).toEqual([]);
    }

    // What the page's script sends once subscribe() answers: the subscription as toJSON() gives it.
    const subscriber = createPushSubscriber();
    const csrf = await page.locator('#push').getAttribute('data-csrf');
    const post = (subscription: unknown) =>
      page.evaluate(
        async ([body]) => {
          const res = await fetch('/account/notifications/push', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          return { status: res.status, body: (await res.json()) as Record<string, unknown> };
        },
        [JSON.stringify({ _csrf: csrf, subscription })],
      );
    const bad = await post({ endpoint: receiver.url('/push/browser'), keys: { p256dh: 'short', auth: subscriber.keys.auth } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'bad_request', details: [{ field: 'subscription.keys.p256dh' }] });
    const good = await post({ endpoint: receiver.url('/push/browser'), expirationTime: null, keys: subscriber.keys });
    expect(good.status).toBe(201);
    expect(good.body.channel).toMatchObject({ kind: 'webpush', url: new URL(receiver.url('/')).origin });

    await page.goto('/account/notifications?done=push');
    expect(await page.locator('.alert.success').textContent()).toContain('Push is on for this browser.');
    await page.getByRole('button', { name: /^Send a test to Web push/ }).click();
    await receiver.waitFor(1, '/push/browser');
    const [push] = receiver.to('/push/browser');
    const { claims, publicKey } = verifyVapid(push!);
    expect(publicKey).toBe(await t.services.channels.publicKey());
    expect(claims.aud).toBe(new URL(receiver.url('/')).origin);
    const payload = JSON.parse(subscriber.decrypt(push!.raw!)) as { title: string; url: string };
    expect(payload.title).toBe('Test notification from Capture Inbox');

    // The push service says the subscription is gone: the channel goes, and the page says why.
    receiver.responder = () => ({ status: 410 });
    await page.getByRole('button', { name: /^Send a test to Web push/ }).click();
    expect(await page.locator('.alert.error').textContent()).toContain('subscription is gone');
    expect(await t.services.channels.list(userId)).toEqual([]);
    receiver.responder = () => ({ status: 200 });
  }, 90_000);

  it('the service worker shows a push as a notification that opens the item (the push and notificationclick handlers)', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    const user = await sessionUserOf(t, userId);
    const { item } = await t.services.capture.capture(user, { text: 'Water the plants' });
    await page.goto('/account/notifications');
    const worker = await waitFor(() => page.context().serviceWorkers()[0], { what: 'the service worker' });
    await page.context().grantPermissions(['notifications'], { origin: t.baseUrl });
    // A push event as the browser dispatches it, with the reminder's payload; the worker's handler shows it.
    const shown = await worker.evaluate(
      async (payload) => {
        const sw = globalThis as unknown as WorkerScope;
        const event = new Event('push') as Event & { data: { json(): unknown; text(): string }; waitUntil(p: Promise<unknown>): void };
        let done: Promise<unknown> = Promise.resolve();
        event.data = { json: () => JSON.parse(payload), text: () => payload };
        event.waitUntil = (p) => {
          done = p;
        };
        sw.dispatchEvent(event);
        await done;
        const list = await sw.registration.getNotifications();
        return list.map((n) => ({ title: n.title, body: n.body, url: n.data.url }));
      },
      JSON.stringify({ id: item.id, title: 'Water the plants', body: 'Due Fri 27 Nov, 09:00', url: `https://inbox.example.test/items/${item.id}` }),
    );
    expect(shown).toEqual([{ title: 'Water the plants', body: 'Due Fri 27 Nov, 09:00', url: `https://inbox.example.test/items/${item.id}` }]);

    // A click opens the link's path on this server (PUBLIC_URL may be another address of it). A
    // window may only be opened from a real click, so the test records what the handler asks for.
    const target = await worker.evaluate(async () => {
      const sw = globalThis as unknown as WorkerScope;
      const [notification] = await sw.registration.getNotifications();
      let asked = '';
      sw.clients.openWindow = async (url) => {
        asked = url;
        return null;
      };
      const event = new Event('notificationclick') as Event & { notification: unknown; waitUntil(p: Promise<unknown>): void };
      let done: Promise<unknown> = Promise.resolve();
      event.notification = notification;
      event.waitUntil = (p) => {
        done = p;
      };
      sw.dispatchEvent(event);
      await done;
      return { asked, left: (await sw.registration.getNotifications()).length };
    });
    expect(target).toEqual({ asked: `${t.baseUrl}/items/${item.id}`, left: 0 });
    await page.goto(target.asked);
    expect(page.url()).toBe(`${t.baseUrl}/inbox/items/${item.id}`);
    expect(await page.locator('h1').textContent()).toBe('Water the plants');
  }, 60_000);

  it('sets a reminder and a repeat on the item page, shows them in words, snoozes, and marks the row', async () => {
    const { page, userId } = await t.signedUp(DESKTOP);
    await t.services.users.updateMe(userId, { timezone: 'Europe/Berlin' });
    const user = await sessionUserOf(t, userId);
    const { item } = await t.services.capture.capture(user, { text: 'Water the plants', due_at: '2026-11-27T08:00:00.000Z' });
    const { item: undated } = await t.services.capture.capture(user, { text: 'Someday: sort the photos' });
    await page.goto(`/inbox/items/${item.id}`);
    expect(await page.locator('#repeat-words').textContent()).toBe('No');
    expect(await page.locator('#next-reminder').textContent()).toBe('None');
    expect(await page.getByLabel('Remind me on').isVisible()).toBe(false);
    await openReminderForm(page);

    // A bad N comes back with its message and what was chosen, and nothing is stored.
    await page.getByLabel('Remind me on').fill('2026-11-27');
    await page.getByLabel('At', { exact: true }).fill('08:30');
    await page.getByLabel('Repeat', { exact: true }).selectOption('every_n_days');
    await page.getByLabel('N (for every N days)').fill('0');
    await page.getByRole('button', { name: 'Save reminder and repeat' }).click();
    expect(await page.locator('#every_days-error').textContent()).toContain('from 1 to 365');
    expect(await page.getByLabel('Repeat', { exact: true }).inputValue()).toBe('every_n_days');
    expect(await page.getByLabel('Remind me on').inputValue()).toBe('2026-11-27');
    expect((await t.services.items.get(userId, item.id)).remind_at).toBeNull();

    await page.getByLabel('Repeat', { exact: true }).selectOption('weekdays');
    await page.getByRole('button', { name: 'Save reminder and repeat' }).click();
    await page.waitForURL(/done=reminder/);
    const saved = await t.services.items.get(userId, item.id);
    expect(saved.recurrence).toEqual({ rule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', from: 'due' });
    expect(saved.remind_at).toBe('2026-11-27T07:30:00.000Z');
    expect(await page.locator('#repeat-words').textContent()).toBe('Every weekday');
    expect(await page.locator('#next-reminder').textContent()).toBe('Fri 27 Nov, 08:30');
    expect(await page.getByLabel('Repeat', { exact: true }).inputValue()).toBe('weekdays');
    await accessibleAtBothWidths(page);
    await screenshot(page, 'item-reminder');

    // Every N days, counted from completion.
    await openReminderForm(page);
    await page.getByLabel('Repeat', { exact: true }).selectOption('every_n_days');
    await page.getByLabel('N (for every N days)').fill('3');
    await page.getByLabel('Count the next one from').selectOption('completion');
    await screenshot(page, 'item-reminder-form');
    await page.getByRole('button', { name: 'Save reminder and repeat' }).click();
    await page.waitForURL(/done=reminder/);
    expect((await t.services.items.get(userId, item.id)).recurrence).toEqual({ rule: 'FREQ=DAILY;INTERVAL=3', from: 'completion' });
    expect(await page.locator('#repeat-words').textContent()).toBe('Every 3 days, counted from completion');

    // Snooze: an hour later than the reminder set (tomorrow 08:30), never earlier (issue 47 item 10:
    // an hour from now, today 12:00, would have moved it earlier).
    await page.getByRole('button', { name: '1 hour' }).click();
    await page.waitForURL(/done=snoozed/);
    expect((await t.services.items.get(userId, item.id)).remind_at).toBe('2026-11-27T08:30:00.000Z');
    expect(await page.locator('#next-reminder').textContent()).toBe('Fri 27 Nov, 09:30');

    // The row on Upcoming (due tomorrow) shows the repeat mark and the next reminder.
    await page.goto('/upcoming');
    const row = page.locator(`#item-${item.id}`);
    expect(await row.locator('.mark.repeat').getAttribute('title')).toBe('Repeats: Every 3 days, counted from completion');
    expect(await row.locator('.mark.repeat .visually-hidden').textContent()).toBe('Repeats every 3 days, counted from completion');
    expect(await row.locator('.mark.remind').textContent()).toBe('reminder Fri 27 Nov, 09:30');
    await accessibleAtBothWidths(page);
    await screenshot(page, 'upcoming-reminder');

    // A repeat needs a due date: the page says so on an item without one, and clears cleanly.
    await page.goto(`/inbox/items/${undated.id}`);
    await openReminderForm(page);
    await page.getByLabel('Repeat', { exact: true }).selectOption('daily');
    await page.getByRole('button', { name: 'Save reminder and repeat' }).click();
    expect(await page.locator('#repeat-error').textContent()).toContain('needs a due date');
    await page.goto(`/inbox/items/${item.id}`);
    await openReminderForm(page);
    await page.getByLabel('Remind me on').fill('');
    await page.getByLabel('Repeat', { exact: true }).selectOption('none');
    await page.getByRole('button', { name: 'Save reminder and repeat' }).click();
    await page.waitForURL(/done=reminder/);
    expect(await t.services.items.get(userId, item.id)).toMatchObject({ recurrence: null, remind_at: null });

    // The link every reminder carries (PUBLIC_URL/items/{id}) opens the item.
    await page.goto(`/items/${item.id}`);
    expect(page.url()).toBe(`${t.baseUrl}/inbox/items/${item.id}`);
  }, 120_000);
});
