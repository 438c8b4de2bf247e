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
    // Where it stayed is a link (issue 47 item 10: "Kept in Inbox" says where, and leads there).
    expect(shown.body).toContain(
      `<strong>Organized:</strong> Kept in <a href="/projects/${item!.project_id}">Inbox</a> (nothing like it in your projects) · due Fri 27 Nov, 17:00 · todo · titled “Buy milk”`,
    );
    const undo = await web.postRaw(`/inbox/items/${item!.id}/undo-organize`, {
      _csrf: csrfOf(shown.body),
      return: '/',
      undo: /name="undo" value="([^"]+)"/.exec(shown.body)![1]!,
    });
    expect(undo.status).toBe(303);
    expect((await only(userId))[0]).toMatchObject({ id: item!.id, title: 'Buy milk tomorrow 5pm', due_at: null });
  });

  it('a filed capture offers "Move back to Inbox (keep the date)" beside the full Undo (issue 47)', async () => {
    const { web, userId } = await proBrowser();
    const work = await t.services.projects.findOrCreate(userId, 'Work');
    const inbox = await t.services.projects.inboxId(userId);
    const page = await web.get('/');
    const res = await web.postRaw('/inbox/capture', {
      _csrf: csrfOf(page.body),
      text: 'Prepare slides for work tomorrow',
      return: '/',
      organize_shown: '1',
      organize: '1',
    });
    const [item] = await only(userId);
    expect(item).toMatchObject({ project_id: work.id, title: 'Prepare slides for work', due_at: '2026-11-26T23:00:00.000Z', all_day: true });
    const shown = await web.get(res.location!);
    const forms = [...shown.body.matchAll(/<form method="post" action="\/inbox\/items\/[^"]+\/undo-organize">(.*?)<\/form>/g)].map((m) => m[1]!);
    expect(forms.map((f) => />([^<>]+)<\/button>/.exec(f)![1])).toEqual(['Move back to Inbox (keep the date)', 'Undo']);
    const back = await web.postRaw(`/inbox/items/${item!.id}/undo-organize`, {
      _csrf: csrfOf(shown.body),
      return: '/',
      undo: /name="undo" value="([^"]+)"/.exec(forms[0]!)![1]!,
      keep: /name="keep" value="([^"]+)"/.exec(forms[0]!)![1]!,
    });
    expect(back.status).toBe(303);
    // Only the project goes back: the date the organizer read, its all-day and the cleaned title stay.
    expect((await only(userId))[0]).toMatchObject({
      id: item!.id,
      project_id: inbox,
      title: 'Prepare slides for work',
      due_at: '2026-11-26T23:00:00.000Z',
      all_day: true,
    });
  });

  it('remembers an unticked box, and then captures with quick add only', async () => {
    const { web, userId } = await proBrowser();
    const page = await web.get('/');
    await web.postRaw('/inbox/capture', { _csrf: csrfOf(page.body), text: 'Call Sam friday #nowhere', return: '/', organize_shown: '1' });
    expect((await only(userId))[0]).toMatchObject({ title: 'Call Sam #nowhere', due_at: '2026-11-26T23:00:00.000Z', all_day: true });
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

  it('free users get quick add but no organizer box, and see what Pro would do once', async () => {
    const { web, userId } = await signedInBrowser(t);
    await t.services.users.updateMe(userId, { timezone: 'Europe/Berlin' });
    const work = await t.services.projects.findOrCreate(userId, 'Work');
    const page = await web.get('/');
    expect(page.body).not.toContain('name="organize"');
    await web.postRaw('/inbox/capture', {
      _csrf: csrfOf(page.body),
      text: 'Call Sam tomorrow 5pm #Work @calls',
      type: '',
      project_id: '',
      return: '/',
      organize: '1',
      organize_shown: '1',
    });
    expect((await only(userId))[0]).toMatchObject({
      title: 'Call Sam',
      due_at: '2026-11-27T16:00:00.000Z',
      project_id: work.id,
      tags: ['calls'],
      type: 'todo',
    });
    expect((await web.get('/')).body).toContain('With Pro, the organizer files captures like this for you');
    expect((await web.get('/')).body).not.toContain('With Pro');
    await web.submit('/', '/inbox/capture', { text: 'again', return: '/' });
    expect((await web.get('/')).body).not.toContain('With Pro');
  });

  it('leaves project and type to the organizer unless chosen in the form (the form sends them empty)', async () => {
    const { web, userId } = await proBrowser();
    const work = await t.services.projects.findOrCreate(userId, 'Work');
    const home = await t.services.projects.findOrCreate(userId, 'Home');
    const page = await web.get('/');
    const capture = (fields: Record<string, string>) =>
      web.postRaw('/inbox/capture', { _csrf: csrfOf(page.body), return: '/', organize_shown: '1', organize: '1', type: '', project_id: '', ...fields });
    expect((await capture({ text: 'idea: prepare slides for work' })).status).toBe(303);
    expect((await only(userId))[0]).toMatchObject({ project_id: work.id, type: 'note' });
    await capture({ text: 'idea: prepare slides for work', project_id: home.id, type: 'todo' });
    expect((await only(userId))[0]).toMatchObject({ project_id: home.id, type: 'todo' });
  });

  it('POST /inbox/parse answers the spans for the capture box on every plan, and needs the form token', async () => {
    const { web, userId } = await signedInBrowser(t);
    const work = await t.services.projects.findOrCreate(userId, 'Work');
    const page = await web.get('/');
    expect(page.body).toContain('data-quick-add');
    expect(page.body).toContain('<option value="" selected>Project: auto</option>');
    const res = await web.postRaw('/inbox/parse', { _csrf: csrfOf(page.body), text: 'Call Sam tomorrow 5pm #Work @calls' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).spans.map((s: { kind: string; text: string; value: string }) => [s.kind, s.text, s.value])).toEqual([
      ['date', 'tomorrow 5pm', '2026-11-27T17:00:00.000Z'],
      ['project', '#Work', work.id],
      ['tag', '@calls', 'calls'],
    ]);
    // A date shows its day and time in the user's zone, as the list does.
    expect(JSON.parse(res.body).spans[0].shown).toBe('Fri 27 Nov, 17:00');
    expect(JSON.parse(res.body).all_day).toBe(false);
    // A day without a time is all-day: its date alone, never 00:00 or 09:00.
    const day = JSON.parse((await web.postRaw('/inbox/parse', { _csrf: csrfOf(page.body), text: 'Buy milk tomorrow' })).body);
    expect(day).toMatchObject({ all_day: true, spans: [{ kind: 'date', text: 'tomorrow', shown: 'Fri 27 Nov' }] });
    expect((await web.postRaw('/inbox/parse', { _csrf: 'wrong', text: 'x' })).status).toBe(403);
    expect(await only(userId)).toEqual([]);
  });
});
