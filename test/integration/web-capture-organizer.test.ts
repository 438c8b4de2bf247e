import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { csrfOf, signedInBrowser } from '../helpers/web-client.js';

describe.each(DIALECTS)('web capture with the organizer (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(new Date('2026-11-26T10:00:00.000Z'));
  });
  afterAll(async () => t?.close());

  async function proBrowser() {
    const signed = await signedInBrowser(t);
    await t.services.users.setPlanById(signed.userId, 'pro');
    await t.services.users.updateMe(signed.userId, { timezone: 'Europe/Berlin' });
    return signed;
  }
  const only = async (userId: string) => (await t.services.items.list(userId, { limit: 10 })).items;

  it('POST /inbox/capture organizes for Pro by default, shows what it decided, and Undo restores the capture as typed', async () => {
    const { web, userId } = await proBrowser();
    const page = await web.get('/');
    expect(page.body).toMatch(/<input type="checkbox" name="organize" value="1" checked>/);
    const res = await web.postRaw('/inbox/capture', {
      _csrf: csrfOf(page.body),
      text: 'Buy milk tomorrow 5pm',
      return: '/',
      organize_shown: '1',
      organize: '1',
    });
    expect(res.status).toBe(303);
    const [item] = await only(userId);
    expect(item).toMatchObject({ title: 'Buy milk', due_at: '2026-11-27T16:00:00.000Z' });
    const shown = await web.get(res.location!);
    expect(shown.body).toContain(
      '<strong>Organized:</strong> Kept in Inbox (nothing like it in your projects) · due Fri 27 Nov, 17:00 · todo · titled “Buy milk”',
    );
    const undo = await web.postRaw(`/inbox/items/${item!.id}/undo-organize`, {
      _csrf: csrfOf(shown.body),
      return: '/',
      undo: /name="undo" value="([^"]+)"/.exec(shown.body)![1]!,
    });
    expect(undo.status).toBe(303);
    expect((await only(userId))[0]).toMatchObject({ id: item!.id, title: 'Buy milk tomorrow 5pm', due_at: null });
  });

  it('remembers an unticked box, and then captures as typed', async () => {
    const { web, userId } = await proBrowser();
    const page = await web.get('/');
    await web.postRaw('/inbox/capture', { _csrf: csrfOf(page.body), text: 'Call Sam friday', return: '/', organize_shown: '1' });
    expect((await only(userId))[0]).toMatchObject({ title: 'Call Sam friday', due_at: null });
    expect((await web.get('/')).body).toMatch(/<input type="checkbox" name="organize" value="1">/);
  });

  it('Undo does not overwrite an edit made after the capture', async () => {
    const { web, userId } = await proBrowser();
    const page = await web.get('/');
    const res = await web.postRaw('/inbox/capture', { _csrf: csrfOf(page.body), text: 'Pay rent tomorrow', return: '/', organize_shown: '1', organize: '1' });
    const shown = await web.get(res.location!);
    const [item] = await only(userId);
    await t.services.items.patch(userId, item!.id, { title: 'Pay the rent' });
    const undo = await web.postRaw(`/inbox/items/${item!.id}/undo-organize`, {
      _csrf: csrfOf(shown.body),
      return: '/',
      undo: /name="undo" value="([^"]+)"/.exec(shown.body)![1]!,
    });
    expect(undo.status).toBe(409);
    expect((await only(userId))[0]!.title).toBe('Pay the rent');
  });

  it('free users capture as typed, have no organizer box, and see what Pro would do once', async () => {
    const { web, userId } = await signedInBrowser(t);
    const page = await web.get('/');
    expect(page.body).not.toContain('name="organize"');
    await web.postRaw('/inbox/capture', { _csrf: csrfOf(page.body), text: 'Buy milk tomorrow 5pm', return: '/', organize: '1', organize_shown: '1' });
    expect((await only(userId))[0]).toMatchObject({ title: 'Buy milk tomorrow 5pm', due_at: null });
    expect((await web.get('/')).body).toContain('With Pro, the organizer files captures like this for you');
    expect((await web.get('/')).body).not.toContain('With Pro');
    await web.submit('/', '/inbox/capture', { text: 'again', return: '/' });
    expect((await web.get('/')).body).not.toContain('With Pro');
  });
});
