import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { signedInBrowser, type WebClient } from '../helpers/web-client.js';

describe.each(DIALECTS)('web projects (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ web, userId } = await signedInBrowser(t));
  });
  afterAll(async () => t?.close());

  it('POST /projects creates a project and opens its page; the page lists its items and the sidebar counts them', async () => {
    const res = await web.submit('/projects', '/projects', { name: 'Garden' });
    expect(res.status).toBe(303);
    const garden = (await t.services.projects.list(userId)).find((p) => p.name === 'Garden')!;
    expect(res.location).toBe(`/projects/${garden.id}`);
    await web.submit(res.location!, '/inbox/capture', { text: 'Plant tulips', project_id: garden.id, return: res.location! });
    await web.submit('/', '/inbox/capture', { text: 'Not in the garden', return: '/' });
    const page = await web.get(res.location!);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Garden</h1>');
    expect(page.body).toContain('Plant tulips');
    // Its list holds only its items (the notice of the last capture, kept in the Inbox, may name the other).
    expect(page.body.split('id="lists"')[1]).not.toContain('Not in the garden');
    expect(page.body).toMatch(
      new RegExp(`href="/projects/${garden.id}" aria-current="page"><span>Garden</span><span class="count" aria-label="1 open">1</span>`),
    );
  });

  it('counts open items beside a project, and every item in all on the projects page; the API keeps counting all', async () => {
    const shed = await t.services.projects.findOrCreate(userId, 'Shed');
    for (const text of ['Oil the hinges', 'Sweep', 'Old paint']) {
      await web.submit('/projects', '/inbox/capture', { text, project_id: shed.id, return: '/projects' });
    }
    const { items } = await t.services.items.inProject(userId, shed.id, { limit: 10 });
    const byTitle = (title: string) => items.find((i) => i.title === title)!.id;
    await t.services.items.toggle(userId, byTitle('Sweep'));
    await t.services.items.archive(userId, byTitle('Old paint'));
    const page = await web.get('/projects');
    const own = await web.get(`/projects/${shed.id}`);
    expect(own.body).toMatch(new RegExp(`href="/projects/${shed.id}" aria-current="page"><span>Shed</span><span class="count" aria-label="1 open">1</span>`));
    expect(page.body).toMatch(/<a href="\/projects\/[^"]+">Shed<\/a><\/p>\s*<p class="meta">1 open · 3 items in all<\/p>/);
    const api = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${shed.id}`,
      headers: { authorization: `Bearer ${(await t.services.keys.mint(userId, 'count check')).token}` },
    });
    expect(api.json()).toEqual(expect.objectContaining({ id: shed.id, item_count: 3 }));
    expect(api.json()).not.toHaveProperty('open_count');
  });

  it('refuses a blank or duplicate name next to the field, keeping what was typed, writing nothing', async () => {
    await t.services.projects.findOrCreate(userId, 'Taxes');
    const before = await fingerprint(t.services.db);
    const blank = await web.submit('/projects', '/projects', { name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toContain('id="project-name-error">Name must be 1 to 100 characters.');
    const reading = await t.services.projects.findOrCreate(userId, 'Reading');
    const after = await fingerprint(t.services.db);
    const clash = await web.submit(`/projects/${reading.id}`, `/projects/${reading.id}/rename`, { name: 'taxes' });
    expect(clash.status).toBe(409);
    expect(clash.body).toContain('id="rename-error">A project named &quot;Taxes&quot; already exists.');
    expect(clash.body).toContain('value="taxes"');
    expect(await fingerprint(t.services.db)).toEqual(after);
    expect(before).not.toEqual(after);
  });

  it('renames, and deleting moves the items to the Inbox as the API does', async () => {
    const p = await t.services.projects.findOrCreate(userId, 'Old name');
    await web.submit('/', '/inbox/capture', { text: 'Moves along', project_id: p.id, return: '/' });
    expect((await web.submit(`/projects/${p.id}`, `/projects/${p.id}/rename`, { name: 'New name' })).location).toBe(`/projects/${p.id}`);
    expect((await t.services.projects.get(userId, p.id)).name).toBe('New name');
    const res = await web.submit(`/projects/${p.id}`, `/projects/${p.id}/delete`);
    expect(res.location).toBe('/projects?done=deleted');
    const inbox = await t.services.projects.requireInbox(t.services.db, userId);
    const moved = (await t.services.items.list(userId, { limit: 50 })).items.find((i) => i.title === 'Moves along')!;
    expect(moved.project_id).toBe(inbox.id);
    expect((await web.get(`/projects/${p.id}`)).status).toBe(404);
  });
});
