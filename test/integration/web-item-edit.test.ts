import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, type Client, type TestApp } from '../helpers/test-app.js';
import { csrfOf, signedInBrowser, type WebClient } from '../helpers/web-client.js';

describe.each(DIALECTS)('web item page (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let api: Client;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const signed = await signedInBrowser(t);
    ({ web, userId } = signed);
    await t.services.users.updateMe(userId, { timezone: 'Europe/Berlin' });
    api = client(t.app, (await t.services.keys.mint(userId, 'edit')).token);
  });
  afterAll(async () => t?.close());

  const newItem = async (text: string) => (await api.post('capture', { text })).body as { id: string };
  /** The edit form's fields as the page rendered them, with changes on top. */
  async function edit(id: string, changes: Record<string, string>, page?: string) {
    const body = page ?? (await web.get(`/inbox/items/${id}`)).body;
    const version = /name="version" value="([^"]+)"/.exec(body)![1]!.replaceAll('&quot;', '"');
    const form = {
      _csrf: csrfOf(body),
      version,
      title: '',
      notes: '',
      type: 'todo',
      status: 'todo',
      due_date: '',
      due_time: '',
      project_id: '',
      new_tags: '',
      parent_id: '',
      ...changes,
    };
    return web.postRaw(`/inbox/items/${id}`, form);
  }

  it('GET /inbox/items/:id renders notes as Markdown with scripts, HTML and javascript: links inert', async () => {
    const { id } = await newItem('Read\n**bold** <script>alert(1)</script> [x](javascript:alert(1)) https://example.org/a');
    const page = await web.get(`/inbox/items/${id}`);
    expect(page.status).toBe(200);
    const notes = /<div class="notes">([\s\S]*?)<\/div>/.exec(page.body)![1]!;
    expect(notes).toContain('<strong>bold</strong>');
    expect(notes).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(notes).not.toContain('href="javascript:');
    expect(notes).toContain('<a href="https://example.org/a" rel="noopener noreferrer nofollow" target="_blank">');
  });

  it('GET /inbox/items/:id links only http, https, mailto and relative URLs; any other scheme stays text (issue 45)', async () => {
    const { id } = await newItem(
      'Links\n[a](ftp://example.org/f) [b](cid:img@x) <JAVASCRIPT:alert(1)> [c](vbscript:x) [d](mailto:s@example.org) [e](https://example.org/e)',
    );
    const notes = /<div class="notes">([\s\S]*?)<\/div>/.exec((await web.get(`/inbox/items/${id}`)).body)![1]!;
    expect(notes.match(/href="[^"]*"/g)).toEqual(['href="mailto:s@example.org"', 'href="https://example.org/e"']);
    expect(notes).toContain('[a](ftp://example.org/f)');
  });

  it('renders a huge note without hanging', async () => {
    const { id } = await newItem(`Huge\n${'['.repeat(50_000)}${'*a'.repeat(20_000)}`);
    const started = Date.now();
    expect((await web.get(`/inbox/items/${id}`)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('POST /inbox/items/:id saves every field: due date and time read in the user zone, tags added and removed, project, parent', async () => {
    const parent = await newItem('Plan the trip');
    const { id } = (await api.post('capture', { text: 'Book train' })).body as { id: string };
    await api.patch(`items/${id}`, { tags: ['old', 'keep'] });
    const work = await t.services.projects.findOrCreate(userId, 'Work');
    const res = await edit(id, {
      title: 'Book the train',
      notes: 'Seat *61*',
      type: 'todo',
      status: 'doing',
      due_date: '2026-12-01',
      due_time: '09:30',
      project_id: work.id,
      tag: 'keep',
      new_tags: 'travel, Urgent',
      parent_id: parent.id,
    });
    expect(res.status, res.body.slice(0, 500)).toBe(303);
    expect(res.location).toBe(`/inbox/items/${id}?done=saved`);
    const item = (await api.get(`items/${id}`)).body;
    expect(item).toMatchObject({
      title: 'Book the train',
      content_md: 'Seat *61*',
      status: 'doing',
      due_at: '2026-12-01T08:30:00.000Z',
      project_id: work.id,
      parent_id: parent.id,
    });
    expect(item.tags).toEqual(['keep', 'travel', 'Urgent']);
    const parentPage = await web.get(`/inbox/items/${parent.id}`);
    expect(parentPage.body).toContain('Book the train');
  });

  it("refuses a stale edit with the user's values kept, and saves them on a deliberate second try", async () => {
    const { id } = await newItem('Original');
    const page = (await web.get(`/inbox/items/${id}`)).body;
    expect((await api.patch(`items/${id}`, { title: 'Changed on the phone' })).status).toBe(200);
    const before = await fingerprint(t.services.db);
    const stale = await edit(id, { title: 'Changed on the laptop' }, page);
    expect(stale.status).toBe(409);
    expect(stale.body).toContain('This item changed after you opened it');
    expect(stale.body).toContain('value="Changed on the laptop"');
    expect(stale.body).toContain('“Changed on the phone”');
    expect(await fingerprint(t.services.db)).toEqual(before);
    expect((await api.get(`items/${id}`)).body.title).toBe('Changed on the phone');
    const again = await edit(id, { title: 'Changed on the laptop' }, stale.body);
    expect(again.status).toBe(303);
    expect((await api.get(`items/${id}`)).body.title).toBe('Changed on the laptop');
  });

  it('answers a field over the contract limits with its message next to it and the typed values kept, writing nothing', async () => {
    const { id } = await newItem('Limits');
    const before = await fingerprint(t.services.db);
    const long = await edit(id, { title: 'x'.repeat(501), notes: 'kept notes' });
    expect(long.status).toBe(400);
    expect(long.body).toMatch(/<p class="field-error" id="title-error">A title has at most 500 characters; this one has 501\.<\/p>/);
    expect(long.body).toContain('>kept notes</textarea>');
    const badTag = await edit(id, { title: 'Limits', new_tags: 't'.repeat(51) });
    expect(badTag.status).toBe(400);
    expect(badTag.body).toContain('id="new_tags-error">Tag names must be 1 to 50 characters without commas.');
    const badDate = await edit(id, { title: 'Limits', due_date: '2026-02-30' });
    expect(badDate.status).toBe(400);
    expect(badDate.body).toContain('id="due_date-error">That date does not exist.');
    const selfParent = await edit(id, { title: 'Limits', parent_id: id });
    expect(selfParent.status).toBe(400);
    expect(selfParent.body).toContain('id="parent_id-error">');
    expect(await fingerprint(t.services.db)).toEqual(before);
  });

  it('POST /inbox/items/:id/subtasks adds a subtask listed under its parent, in its project', async () => {
    const { id } = await newItem('Move house');
    const page = await web.get(`/inbox/items/${id}`);
    const res = await web.postRaw(`/inbox/items/${id}/subtasks`, { _csrf: csrfOf(page.body), text: 'Order boxes' });
    expect(res.status).toBe(303);
    const children = (await api.get(`items/${id}/children`)).body as { title: string; parent_id: string }[];
    expect(children).toMatchObject([{ title: 'Order boxes', parent_id: id }]);
    expect((await web.get(`/inbox/items/${id}`)).body).toContain('Order boxes');
    const blank = await web.postRaw(`/inbox/items/${id}/subtasks`, { _csrf: csrfOf(page.body), text: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toContain('Type the subtask.');
  });

  it("the page's Archive and Delete refuse an item changed since the page was loaded", async () => {
    const { id } = await newItem('Shared list');
    const page = (await web.get(`/inbox/items/${id}`)).body;
    const version = /name="version" value="([^"]+)"/.exec(page)![1]!.replaceAll('&quot;', '"');
    await api.patch(`items/${id}`, { title: 'Shared list, longer' });
    for (const action of ['archive', 'delete']) {
      const res = await web.postRaw(`/inbox/items/${id}/${action}`, { _csrf: csrfOf(page), return: `/inbox/items/${id}`, version });
      expect(res.status).toBe(409);
      expect(res.body).toContain('changed after this page was loaded');
    }
    expect((await api.get(`items/${id}`)).body).toMatchObject({ title: 'Shared list, longer', status: 'todo' });
  });

  it("answers another user's item with a 404 page", async () => {
    const { id } = await newItem('Mine');
    const other = await signedInBrowser(t);
    expect((await other.web.get(`/inbox/items/${id}`)).status).toBe(404);
  });
});
