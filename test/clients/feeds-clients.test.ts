import { ApiError, createClient, type CaptureInbox } from '@capture-inbox/sdk';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { capture, ok } from '../helpers/items.js';
import { client, createUser, type Client, type TestUser } from '../helpers/test-app.js';
import { makeHome, runCin } from './cin-process.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

/* Calendar feeds from the SDK's `feeds` namespace and `cin feeds`, against a real server. */
describe.each(DIALECTS)('feeds from the SDK and cin (%s)', (dialect) => {
  let t: ListeningApp;
  let user: TestUser;
  let api: Client;
  let inbox: CaptureInbox;
  const home = makeHome();
  let env: Record<string, string>;
  const cin = (args: string[]) => runCin(home.dir, args, { env });
  /** The feed as a calendar app reads it: over HTTP, with no key. */
  const read = async (url: string) => fetch(`${t.baseUrl}${new URL(url).pathname}`);

  beforeAll(async () => {
    t = await startListeningApp(dialect);
    user = await createUser(t);
    api = client(t.app, user.token);
    inbox = createClient({ baseUrl: t.baseUrl, token: user.token });
    const work = ok(await api.post('projects', { name: 'Work' }));
    await capture(api, 'send the invoice', { parse: false, project_id: work.id, due_at: '2026-12-04T10:00:00.000Z' });
    await capture(api, 'call Ana', { parse: false, tags: ['calls'] });
    ok(await api.post('filters', { name: 'Calls', query: '@calls' }), 201);
    env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token };
  });
  afterAll(async () => {
    await t?.close();
    home.dispose();
  });

  it('SDK: create, list, rotate and delete; the URL serves iCalendar until rotated or deleted', async () => {
    const feed = await inbox.feeds.create({ all: true, as: 'events' });
    expect(feed).toMatchObject({ all: true, as: 'events' });
    const res = await read(feed.url);
    expect(res.status).toBe(200);
    const calendar = new ICAL.Component(ICAL.parse(await res.text()) as unknown[]);
    expect(calendar.getAllSubcomponents('vevent').map((e) => e.getFirstPropertyValue('summary'))).toEqual(['send the invoice']);
    expect((await inbox.feeds.list()).map((f) => f.id)).toContain(feed.id);

    const rotated = await inbox.feeds.rotate(feed.id);
    expect(rotated.url).not.toBe(feed.url);
    expect((await read(feed.url)).status).toBe(404);
    await inbox.feeds.delete(feed.id);
    expect((await read(rotated.url)).status).toBe(404);
    const refused = await inbox.feeds.create({ all: true, project_id: user.inboxId }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, error: 'bad_request' });
  });

  it('cin feeds add --project / --filter / --all [--events], lists, and rm', async () => {
    const byProject = await cin(['feeds', 'add', '--project', 'work', '--json']);
    expect(byProject.code, byProject.stderr).toBe(0);
    const projectFeed = JSON.parse(byProject.stdout);
    expect(projectFeed).toMatchObject({ as: 'todos', all: false });
    const vtodos = new ICAL.Component(ICAL.parse(await (await read(projectFeed.url)).text()) as unknown[]).getAllSubcomponents('vtodo');
    expect(vtodos.map((v) => v.getFirstPropertyValue('summary'))).toEqual(['send the invoice']);

    const byFilter = await cin(['feeds', 'add', '--filter', 'calls']);
    expect(byFilter.code, byFilter.stderr).toBe(0);
    expect(byFilter.stdout).toMatch(/^added {5}[0-9a-f-]{36}\nhttp/);
    const everything = await cin(['feeds', 'add', '--all', '--events']);
    expect(everything.code, everything.stderr).toBe(0);

    const listed = await cin(['feeds']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('#Work');
    expect(listed.stdout).toContain('view Calls');
    expect(listed.stdout).toMatch(/events\s+everything/);
    expect(listed.stdout).toContain(projectFeed.url);

    const both = await cin(['feeds', 'add', '--all', '--project', 'Work']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/exactly one of/);
    const unknown = await cin(['feeds', 'add', '--project', 'Nowhere']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no project is named Nowhere/);

    const removed = await cin(['feeds', 'rm', projectFeed.id]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe(`deleted   ${projectFeed.id}\n`);
    expect((await read(projectFeed.url)).status).toBe(404);
    expect(JSON.parse((await cin(['feeds', '--json'])).stdout)).toEqual(ok(await api.get('feeds')).feeds);
    expect((await cin(['feeds', 'rm', 'ffffffff'])).code).toBe(1);
  });
});
