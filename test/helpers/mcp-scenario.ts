import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, it } from 'vitest';
import { capture, ok, UNKNOWN_ID } from './items.js';
import { callError, callOk } from './mcp-clients.js';
import type { Client, JsonBody, TestApp } from './test-app.js';

/** An API item as the MCP tools answer it: their output schema leaves out the fields no tool serves (attachments). */
function asMcpItem(item: JsonBody): JsonBody {
  const { attachments, ...rest } = item;
  void attachments;
  return rest;
}

/** What the tool tests need: an MCP client of a Pro user in Europe/Berlin, and the API as that user and as a stranger. */
export interface ToolFixture {
  t: TestApp;
  mcp: McpClient;
  /** The same user through the API, to check what the tools did. */
  api: Client;
  /** Another user, whose items the MCP client must not reach. */
  stranger: Client;
  healthId: string;
}

export const TOOL_NAMES = [
  'archive_item',
  'capture',
  'complete_item',
  'complete_items',
  'create_project',
  'delete_item',
  'find_items',
  'get_current_time',
  'get_item',
  'list_completed',
  'list_filters',
  'list_items',
  'list_projects',
  'list_subtasks',
  'organize_item',
  'parse_text',
  'search',
  'snooze_item',
  'update_item',
  'update_items',
];

/** "Sat 28 Nov 09:00": the year is shown only outside the current one. */
const dueText = (day: string, year: number, time: string): string => `${day}${new Date().getFullYear() === year ? '' : ` ${year}`} ${time}`;

/** Every tool through the given transport, each checked against the API. Shared by the stdio and HTTP suites. */
export function itServesEveryTool(get: () => ToolFixture): void {
  it('lists the twenty tools with input and output schemas, descriptions and annotations', async () => {
    const { tools } = await get().mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      // JSON Schema 2020-12 is the protocol's default dialect: no schema names it.
      expect(tool.inputSchema.$schema, tool.name).toBeUndefined();
      expect(tool.outputSchema?.$schema, tool.name).toBeUndefined();
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of [
      'search',
      'list_items',
      'find_items',
      'list_filters',
      'list_completed',
      'get_item',
      'list_subtasks',
      'list_projects',
      'parse_text',
      'get_current_time',
    ])
      expect(byName.get(name)?.annotations, name).toEqual({ readOnlyHint: true, openWorldHint: false });
    // The server's instructions say how to page; each list tool says it is paged.
    for (const name of ['search', 'list_items', 'list_subtasks', 'list_completed']) {
      expect(Object.keys(byName.get(name)?.inputSchema.properties ?? {}), name).toEqual(expect.arrayContaining(['limit', 'cursor']));
      expect(byName.get(name)?.description, name).toMatch(/Paged\./);
    }
    // find_items pages too; its description spends the words on the filter syntax (tools/list stays under 10 KiB).
    expect(Object.keys(byName.get('find_items')?.inputSchema.properties ?? {})).toEqual(['filter', 'limit', 'cursor']);
    for (const name of [
      'capture',
      'update_item',
      'complete_item',
      'archive_item',
      'organize_item',
      'delete_item',
      'create_project',
      'complete_items',
      'update_items',
    ])
      expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(false);
    expect(byName.get('archive_item')?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    // idempotentHint false is the protocol's default, so it is not listed.
    expect(byName.get('delete_item')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
    expect(byName.get('complete_items')?.annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(byName.get('update_items')?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(byName.get('create_project')?.annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(byName.get('complete_item')?.annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(byName.get('capture')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
    // text (one item) or items (a list): neither is required on its own; the tool refuses both or none.
    expect(byName.get('capture')?.inputSchema.required).toBeUndefined();
    expect(Object.keys(byName.get('capture')?.inputSchema.properties ?? {}).sort()).toEqual([
      'all_day',
      'due',
      'items',
      'organize',
      'parent',
      'parse',
      'project',
      'tags',
      'text',
      'type',
    ]);
    expect(Object.keys(byName.get('update_item')?.inputSchema.properties ?? {}).sort()).toEqual([
      'all_day',
      'content_md',
      'due_at',
      'id',
      'parent_id',
      'project',
      'recurrence',
      'remind_at',
      'status',
      'tags',
      'title',
    ]);
    expect(byName.get('search')?.description).toMatch(/start of a word/);
    expect(byName.get('complete_item')?.description).toMatch(/never flips/);
    expect(byName.get('capture')?.description).toMatch(/organize/);
    expect(byName.get('capture')?.description).toMatch(/#Work @calls/);
  });

  it('capture files the text with project (by name), due date and tags, and says so in one line', async () => {
    const { mcp, api, healthId } = get();
    const { text, structured } = await callOk(mcp, 'capture', {
      text: 'Call the dentist\nask about the crown',
      project: 'health',
      due: '2026-11-28T09:00:00+01:00',
      tags: ['teeth'],
    });
    const id = structured.item.id as string;
    expect(text).toBe(`Captured 'Call the dentist' → Health, due ${dueText('Sat 28 Nov', 2026, '09:00')} (Europe/Berlin), @teeth · id ${id}`);
    const stored = ok(await api.get(`items/${id}`));
    expect(stored).toMatchObject({
      title: 'Call the dentist',
      content_md: 'ask about the crown',
      project_id: healthId,
      due_at: '2026-11-28T08:00:00.000Z',
      tags: ['teeth'],
      type: 'todo',
    });
    expect(structured.item).toEqual({ ...asMcpItem(stored), project_name: 'Health', ai: null });
  });

  it('capture reads quick add by default (parse: false stores as typed), and parse_text previews it storing nothing', async () => {
    const { mcp, api, healthId } = get();
    const before = ok(await api.get('items?limit=200')).items.length;
    const preview = await callOk(mcp, 'parse_text', { text: 'Floss daily #health @teeth every day 9pm' });
    expect(preview.structured).toMatchObject({
      title: 'Floss daily',
      project_id: healthId,
      tags: ['teeth'],
      recurrence: { rule: 'FREQ=DAILY', from: 'due' },
    });
    expect(preview.structured.spans.map((s: { kind: string }) => s.kind)).toEqual(['project', 'tag', 'recurrence']);
    expect(preview.text).toMatch(/^Would capture 'Floss daily': project '#health' → /);
    expect(ok(await api.get('items?limit=200')).items.length).toBe(before);
    const parsed = await callOk(mcp, 'capture', { text: 'Floss daily #health @teeth every day 9pm' });
    expect(parsed.structured.item).toMatchObject({ title: 'Floss daily', project_id: healthId, tags: ['teeth'], due_at: preview.structured.due_at });
    const raw = await callOk(mcp, 'capture', { text: 'Floss daily #health @teeth', parse: false });
    expect(raw.structured.item).toMatchObject({ title: 'Floss daily #health @teeth', tags: [] });
  });

  it('capture with organize lets the server decide (Pro), and an unknown project name is not_found with nothing captured', async () => {
    const { mcp, api } = get();
    const { structured, text } = await callOk(mcp, 'capture', { text: 'Buy milk tomorrow', organize: true });
    expect(structured.item.ai).toMatchObject({ engine: 'local' });
    expect(text).toMatch(/^Captured 'Buy milk.*\(the organizer (set its .*|changed nothing)\) · id /);
    const before = ok(await api.get('items?limit=200')).items.length;
    expect(await callError(mcp, 'capture', { text: 'Lost thing', project: 'No Such Project' })).toMatch(/^not_found: no project named "No Such Project"/);
    expect(ok(await api.get('items?limit=200')).items.length).toBe(before);
  });

  it('search matches word prefixes, filters by tag, project and status, and says when more match', async () => {
    const { mcp, api, healthId } = get();
    await capture(api, 'Dentalfloss refill', { project_id: healthId });
    const found = await callOk(mcp, 'search', { query: 'denta' });
    expect(found.structured.items.map((i: { title: string }) => i.title)).toEqual(['Dentalfloss refill']);
    expect(found.text).toMatch(/^Found 1 item for 'denta'\n- 'Dentalfloss refill' → Health · id /);
    expect((await callOk(mcp, 'search', { query: 'entalfloss' })).structured.items).toEqual([]);
    const tagged = await callOk(mcp, 'search', { query: 'dentist', tag: 'TEETH' });
    expect(tagged.structured.items.map((i: { title: string }) => i.title)).toEqual(['Call the dentist']);
    const inHealth = await callOk(mcp, 'search', { query: '', project: 'Health', limit: 1 });
    expect(inHealth.structured).toMatchObject({ next_cursor: expect.any(String), items: [{ title: 'Dentalfloss refill', project_name: 'Health' }] });
    expect(inHealth.text).toMatch(/^Found 1 item \(more: call again with cursor = next_cursor\)/);
    expect((await callOk(mcp, 'search', { query: 'dent', status: 'done' })).structured.items).toEqual([]);
  });

  it('list_items lists newest first, in one project, and the changes since a time', async () => {
    const { mcp, api, healthId, t } = get();
    const newest = await capture(api, 'Newest thought');
    const all = await callOk(mcp, 'list_items', { limit: 2 });
    expect(all.structured.items[0].id).toBe(newest.id);
    expect(all.structured.next_cursor).toEqual(expect.any(String));
    const health = await callOk(mcp, 'list_items', { project: 'Health' });
    expect(health.structured.items.length).toBeGreaterThan(0);
    for (const item of health.structured.items) expect(item.project_id).toBe(healthId);
    t.clock.advance(60_000);
    const since = t.clock.now().toISOString();
    const changed = await capture(api, 'Changed later', { project_id: healthId });
    expect((await callOk(mcp, 'list_items', { since })).structured.items.map((i: { id: string }) => i.id)).toEqual([changed.id]);
    expect((await callOk(mcp, 'list_items', { since, project: 'Inbox' })).structured.items).toEqual([]);
    expect((await callOk(mcp, 'list_items', { since, project: healthId })).text).toMatch(/^1 item in Health changed since /);
  });

  it('get_item answers the item with its body', async () => {
    const { mcp, api } = get();
    const item = await capture(api, 'Read the manual\nchapter 3 first');
    const { text, structured } = await callOk(mcp, 'get_item', { id: item.id });
    expect(structured).toEqual({ item: { ...asMcpItem(item), project_name: 'Inbox' }, subtasks: [], subtasks_cursor: null });
    expect(text).toBe(`'Read the manual' → Inbox · id ${item.id}\nchapter 3 first`);
  });

  it('update_item changes only the fields given: tags replace, null clears, project by name', async () => {
    const { mcp, api, healthId } = get();
    const item = await capture(api, 'Stretch\ndaily', { due_at: '2026-12-01T07:00:00Z' });
    ok(await api.patch(`items/${item.id}`, { tags: ['a', 'b'] }));
    const { structured, text } = await callOk(mcp, 'update_item', { id: item.id, title: 'Stretch more', due_at: null, tags: ['c'], project: 'HEALTH' });
    expect(structured.item).toMatchObject({
      title: 'Stretch more',
      content_md: 'daily',
      due_at: null,
      tags: ['c'],
      project_id: healthId,
      project_name: 'Health',
    });
    expect(text).toBe(`Updated 'Stretch more' → Health, @c · id ${item.id}`);
    expect(ok(await api.get(`items/${item.id}`))).toMatchObject({ title: 'Stretch more', due_at: null, tags: ['c'], project_id: healthId });
  });

  it('complete_item sets the value and never flips it; an archived item stays archived', async () => {
    const { mcp, api } = get();
    const item = await capture(api, 'Water the plants');
    for (let i = 0; i < 2; i += 1) {
      const done = await callOk(mcp, 'complete_item', { id: item.id });
      expect(done.structured.item).toMatchObject({ is_completed: true, status: 'done' });
      expect(done.text).toMatch(/^Completed 'Water the plants' → Inbox, done · id /);
    }
    for (let i = 0; i < 2; i += 1)
      expect((await callOk(mcp, 'complete_item', { id: item.id, done: false })).structured.item).toMatchObject({ is_completed: false, status: 'todo' });
    ok(await api.post(`items/${item.id}/archive`));
    expect((await callOk(mcp, 'complete_item', { id: item.id, done: true })).structured.item).toMatchObject({ is_completed: true, status: 'archived' });
  });

  it('update_item sets a recurrence and a reminder; complete_item then moves the item to its next occurrence; snooze_item reminds again later', async () => {
    const { mcp, api } = get();
    const item = await capture(api, 'Stretch');
    const updated = await callOk(mcp, 'update_item', {
      id: item.id,
      due_at: '2030-03-04T09:00:00Z',
      remind_at: '2030-03-04T08:50:00Z',
      recurrence: { rule: 'FREQ=DAILY;INTERVAL=2', from: 'due' },
    });
    expect(updated.structured.item).toMatchObject({ recurrence: { rule: 'FREQ=DAILY;INTERVAL=2', from: 'due' }, remind_at: '2030-03-04T08:50:00.000Z' });
    const moved = await callOk(mcp, 'complete_item', { id: item.id });
    expect(moved.structured.item).toMatchObject({ is_completed: false, due_at: '2030-03-06T09:00:00.000Z', remind_at: '2030-03-06T08:50:00.000Z' });
    const snoozed = await callOk(mcp, 'snooze_item', { id: item.id, until: '2030-03-06T09:30:00Z' });
    expect(snoozed.structured.item.remind_at).toBe('2030-03-06T09:30:00.000Z');
    expect(ok(await api.get(`items/${item.id}`)).remind_at).toBe('2030-03-06T09:30:00.000Z');
  });

  it('archive_item archives, and archiving again changes nothing', async () => {
    const { mcp, api } = get();
    const item = await capture(api, 'Old idea');
    const first = await callOk(mcp, 'archive_item', { id: item.id });
    expect(first.structured.item.status).toBe('archived');
    expect(first.text).toMatch(/^Archived 'Old idea' → Inbox, archived · id /);
    const again = await callOk(mcp, 'archive_item', { id: item.id });
    expect(again.structured.item.archived_at).toBe(first.structured.item.archived_at);
  });

  it('delete_item deletes the item for good, and deleting it again is not_found', async () => {
    const { mcp, api } = get();
    const item = await capture(api, 'Spam to throw away');
    const { structured, text } = await callOk(mcp, 'delete_item', { id: item.id });
    expect(structured).toEqual({ deleted: { id: item.id, title: 'Spam to throw away' } });
    expect(text).toMatch(/^Deleted 'Spam to throw away'/);
    expect((await api.get(`items/${item.id}`)).status).toBe(404);
    expect(await callError(mcp, 'delete_item', { id: item.id })).toMatch(/not_found/);
  });

  it('create_project makes a project that capture can then file into, and a name that exists answers that project', async () => {
    const { mcp, api } = get();
    const name = `Garden ${Date.now()}`;
    const { structured, text } = await callOk(mcp, 'create_project', { name });
    expect(structured.project.name).toBe(name);
    expect(text).toBe(`Created project ${name} · id ${structured.project.id}`);
    const filed = await callOk(mcp, 'capture', { text: 'plant the tulip bulbs', project: name.toLowerCase(), parse: false });
    expect(filed.structured.item.project_id).toBe(structured.project.id);
    expect(ok(await api.get('projects')).projects.some((p: { id: string }) => p.id === structured.project.id)).toBe(true);
    const again = await callOk(mcp, 'create_project', { name: ` ${name.toUpperCase()} ` });
    expect(again.structured.project).toEqual(structured.project);
  });

  it("get_current_time answers the user's zone and local time with its offset", async () => {
    const { mcp } = get();
    const before = Date.now();
    const { structured, text } = await callOk(mcp, 'get_current_time');
    expect(structured.timezone).toBe('Europe/Berlin');
    expect(structured.now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/);
    // The local wall clock with its offset names the same instant as now_utc (to the second).
    expect(Math.abs(Date.parse(structured.now) - Date.parse(structured.now_utc))).toBeLessThan(1000);
    expect(Date.parse(structured.now_utc)).toBeGreaterThanOrEqual(before - 1000);
    expect(text).toBe(`It is ${structured.weekday} ${structured.now} in Europe/Berlin.`);
  });

  it('list_projects lists the projects with the Inbox as default', async () => {
    const { mcp, api } = get();
    const { structured, text } = await callOk(mcp, 'list_projects');
    const projects = ok(await api.get('projects')).projects as Array<{ id: string; name: string; is_default: boolean; item_count: number }>;
    expect(structured.projects).toEqual(projects.map(({ id, name, is_default, item_count }) => ({ id, name, is_default, item_count })));
    expect(text.split('\n')[0]).toBe(`${projects.length} projects`);
    expect(text).toMatch(/- Inbox \(default\): \d+ items? · id /);
  });

  it('organize_item runs the organizer on an existing item', async () => {
    const { mcp, api } = get();
    const item = await capture(api, 'Note: the wifi password is on the fridge');
    const { structured, text } = await callOk(mcp, 'organize_item', { id: item.id });
    expect(structured.item.id).toBe(item.id);
    expect(structured.item.ai).toMatchObject({ engine: 'local' });
    expect(text).toMatch(/^Organized '.*\(the organizer (set its .*|changed nothing)\) · id /);
  });

  it("answers another user's ids, unknown tools and wrong argument types with tool errors, and keeps serving", async () => {
    const { mcp, stranger } = get();
    const theirs = await capture(stranger, 'Private matter');
    for (const [tool, args] of [
      ['get_item', { id: theirs.id }],
      ['update_item', { id: theirs.id, title: 'mine now' }],
      ['complete_item', { id: theirs.id }],
      ['archive_item', { id: theirs.id }],
      ['organize_item', { id: theirs.id }],
      ['get_item', { id: UNKNOWN_ID }],
    ] as const) {
      expect(await callError(mcp, tool, args), tool).toMatch(/^not_found: /);
    }
    expect(ok(await stranger.get(`items/${theirs.id}`))).toMatchObject({ title: 'Private matter', status: 'todo' });
    expect(await callError(mcp, 'delete_everything', {})).toMatch(/delete_everything not found/);
    expect(await callError(mcp, 'get_item', { id: 42 })).toMatch(/Invalid arguments for tool get_item/);
    expect(await callError(mcp, 'capture', { text: 'x', tags: 'not-a-list' })).toMatch(/Invalid arguments for tool capture/);
    expect(await callError(mcp, 'capture', { text: 'x', due: 'next friday' })).toMatch(/Invalid arguments for tool capture/);
    expect(await callError(mcp, 'update_item', { id: 'not-an-id', title: 'x' })).toMatch(/^not_found: /);
    expect((await callOk(mcp, 'list_projects')).structured.projects.length).toBeGreaterThan(0);
  });

  it("capture with parent makes a subtask in the parent's project; list_subtasks and get_item show it; update_item parent_id moves it out", async () => {
    const { mcp, api, healthId } = get();
    const parent = await capture(api, 'Plan the garden', { project_id: healthId });
    const first = await callOk(mcp, 'capture', { text: 'Buy seeds', parent: parent.id });
    expect(first.structured.item).toMatchObject({ title: 'Buy seeds', parent_id: parent.id, project_id: healthId, project_name: 'Health' });
    expect(first.text).toBe(`Captured 'Buy seeds' → Health, subtask of 'Plan the garden' · id ${first.structured.item.id}`);
    expect(ok(await api.get(`items/${first.structured.item.id}`))).toMatchObject({ parent_id: parent.id });
    const second = (await callOk(mcp, 'capture', { text: 'Dig the beds', parent: parent.id, parse: false })).structured.item;
    const third = (await callOk(mcp, 'capture', { text: 'Water', parent: parent.id, parse: false })).structured.item;
    // Newest first, as the API lists them.
    const ids = [third.id, second.id, first.structured.item.id];

    const shown = await callOk(mcp, 'get_item', { id: parent.id });
    expect(shown.structured.subtasks.map((i: { id: string }) => i.id)).toEqual(ids);
    expect(shown.structured.subtasks_cursor).toBeNull();
    expect(shown.text).toBe(
      [
        `'Plan the garden' → Health · id ${parent.id}`,
        '3 subtasks:',
        ...["'Water'", "'Dig the beds'", "'Buy seeds'"].map((t, i) => `- ${t} → Health · id ${ids[i]}`),
      ].join('\n'),
    );

    // Paged two at a time with the API's cursor.
    const page1 = await callOk(mcp, 'list_subtasks', { id: parent.id, limit: 2 });
    expect(page1.structured.items.map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 2));
    expect(page1.text).toMatch(/^2 subtasks \(more: call again with cursor = next_cursor\)\n- 'Water'/);
    const page2 = await callOk(mcp, 'list_subtasks', { id: parent.id, limit: 2, cursor: page1.structured.next_cursor });
    expect(page2.structured).toMatchObject({ items: [{ id: first.structured.item.id }], next_cursor: null });

    const moved = await callOk(mcp, 'update_item', { id: third.id, parent_id: null });
    expect(moved.structured.item.parent_id).toBeNull();
    expect((await callOk(mcp, 'list_subtasks', { id: parent.id })).structured.items).toHaveLength(2);
    expect((await callOk(mcp, 'update_item', { id: third.id, parent_id: parent.id })).structured.item.parent_id).toBe(parent.id);
    expect(await callError(mcp, 'update_item', { id: parent.id, parent_id: third.id })).toMatch(
      /^bad_request: parent_id cannot be the item itself or one of its subtasks/,
    );
  });

  it('get_item shows the first 50 subtasks, and its subtasks_cursor goes on in list_subtasks', async () => {
    const { mcp, api } = get();
    const parent = await capture(api, 'Big checklist');
    const made = new Set<string>();
    for (let i = 0; i < 52; i += 1) {
      const child = await capture(api, `Step ${i}`);
      ok(await api.patch(`items/${child.id}`, { parent_id: parent.id }));
      made.add(child.id as string);
    }
    const shown = await callOk(mcp, 'get_item', { id: parent.id });
    expect(shown.structured.subtasks).toHaveLength(50);
    expect(shown.text.split('\n')[1]).toBe('50 subtasks (more: list_subtasks):');
    const rest = await callOk(mcp, 'list_subtasks', { id: parent.id, cursor: shown.structured.subtasks_cursor });
    expect(rest.structured).toMatchObject({ next_cursor: null });
    const seen = [...shown.structured.subtasks, ...rest.structured.items].map((i: { id: string }) => i.id);
    expect(seen).toHaveLength(52);
    expect(new Set(seen)).toEqual(made);
  });

  it('capture with an unknown parent is not_found and captures nothing', async () => {
    const { mcp, api } = get();
    const before = ok(await api.get('items?limit=200')).items.length;
    expect(await callError(mcp, 'capture', { text: 'Orphan', parent: UNKNOWN_ID })).toMatch(/^not_found: /);
    expect(await callError(mcp, 'list_subtasks', { id: UNKNOWN_ID })).toMatch(/^not_found: /);
    expect(ok(await api.get('items?limit=200')).items.length).toBe(before);
  });

  it('search and list_items walk more than 100 items page by page with next_cursor, each item once', async () => {
    const { mcp, api, t } = get();
    t.clock.advance(60_000);
    const since = t.clock.now().toISOString();
    const project = ok(await api.post('projects', { name: 'Paging' }));
    const made = new Set<string>();
    for (let i = 0; i < 105; i += 1) made.add((await capture(api, `Pagewalk number ${i}`, { project_id: project.id })).id as string);

    const walk = async (tool: string, args: Record<string, unknown>): Promise<{ ids: string[]; pages: number[] }> => {
      const ids: string[] = [];
      const pages: number[] = [];
      let cursor: string | null = null;
      for (let calls = 0; calls < 10; calls += 1) {
        const { structured } = await callOk(mcp, tool, { ...args, limit: 100, ...(cursor ? { cursor } : {}) });
        ids.push(...structured.items.map((i: { id: string }) => i.id));
        pages.push(structured.items.length);
        cursor = structured.next_cursor;
        if (cursor === null) break;
      }
      expect(cursor, `${tool} ended`).toBeNull();
      return { ids, pages };
    };
    for (const [tool, args] of [
      ['search', { query: 'pagewalk' }],
      ['list_items', { project: 'Paging' }],
      ['list_items', { project: 'Paging', since }],
    ] as const) {
      const { ids, pages } = await walk(tool, args);
      expect(pages[0], `${tool} ${JSON.stringify(args)}`).toBe(100);
      expect(ids).toHaveLength(105);
      expect(new Set(ids)).toEqual(made);
    }
    // Without a project the feed is paged by the API alone; newest first, so the first page is the newest 100.
    const newest = await callOk(mcp, 'list_items', { limit: 100 });
    expect(newest.structured.items).toHaveLength(100);
    const rest = await callOk(mcp, 'list_items', { limit: 100, cursor: newest.structured.next_cursor });
    expect(rest.structured.items.every((i: { id: string }) => !newest.structured.items.some((n: { id: string }) => n.id === i.id))).toBe(true);
    // A cursor is the API's and opaque: a made-up one is the API's bad_request.
    expect(await callError(mcp, 'search', { query: 'pagewalk', cursor: 'not-a-cursor' })).toMatch(/^bad_request: /);
  });
}
