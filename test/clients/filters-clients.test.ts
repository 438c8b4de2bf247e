import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { DIALECTS } from '../helpers/dialects.js';
import { capture, ok } from '../helpers/items.js';
import { callError, callOk, connectHttp } from '../helpers/mcp-clients.js';
import { client, createUser, type Client, type JsonBody, type TestUser } from '../helpers/test-app.js';
import { makeHome, runCin } from './cin-process.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

/*
 * The filter language from `cin` and MCP against a real server (issue 48): both send the query to
 * the server, which alone parses it, so a query means the same in every client.
 */
describe.each(DIALECTS)('filters from cin and MCP (%s)', (dialect) => {
  let t: ListeningApp;
  let user: TestUser;
  let api: Client;
  let mcp: McpClient;
  const home = makeHome();
  let env: Record<string, string>;
  const cin = (args: string[]) => runCin(home.dir, args, { env });

  beforeAll(async () => {
    t = await startListeningApp(dialect);
    t.clock.set('2026-11-21T08:00:00.000Z');
    user = await createUser(t);
    api = client(t.app, user.token);
    const work = ok(await api.post('projects', { name: 'Work' }));
    await capture(api, 'call the plumber', { parse: false, project_id: work.id, tags: ['calls'], due_at: '2026-11-21T15:00:00.000Z' });
    t.clock.advance(1000);
    await capture(api, 'old invoice', { parse: false, due_at: '2026-11-19T09:00:00.000Z' });
    t.clock.advance(1000);
    await capture(api, 'someday idea', { parse: false });
    env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token };
    mcp = await connectHttp(t.baseUrl, user.token);
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
    home.dispose();
  });

  const titlesOf = (stdout: string): string[] => (JSON.parse(stdout) as JsonBody[]).map((i) => i.title);

  it('cin ls --filter lists what the query picks, by due date; a bad query is exit 1 with a caret under the position', async () => {
    const run = await cin(['ls', '--filter', 'today | overdue', '--json']);
    expect(run.stderr).toBe('');
    expect(titlesOf(run.stdout)).toEqual(['old invoice', 'call the plumber']);
    const rows = await cin(['ls', '--filter', '#work & @calls']);
    expect(rows.code).toBe(0);
    expect(rows.stdout).toContain('call the plumber');
    expect(rows.stdout).not.toContain('old invoice');

    const bad = await cin(['ls', '--filter', 'today & #']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(`error bad_request: expected a project name after #\n  today & #\n  ${' '.repeat(9)}^\n`);
    const mixed = await cin(['ls', '--filter', 'today', '--project', 'Work']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/--project does not go with --filter/);
  });

  it('cin filters add, lists, ls --view NAME and rm', async () => {
    const added = await cin(['filters', 'add', 'Late or today', 'overdue | today']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^added {5}Late or today {2}overdue \| today {2}[0-9a-f-]{36}\n$/);
    const refused = await cin(['filters', 'add', 'Broken', '(today']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('error bad_request: expected ) to close the (\n  (today\n        ^\n');

    const listed = await cin(['filters']);
    expect(listed.stdout).toBe('Late or today  overdue | today\n');
    expect(JSON.parse((await cin(['filters', '--json'])).stdout)).toEqual(ok(await api.get('filters')).filters);

    const view = await cin(['ls', '--view', 'late OR today', '--json']);
    expect(titlesOf(view.stdout)).toEqual(['old invoice', 'call the plumber']);
    const missing = await cin(['ls', '--view', 'Nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no saved filter is named Nope/);

    const removed = await cin(['filters', 'rm', 'Late or today']);
    expect(removed.stdout).toBe('deleted   Late or today\n');
    expect(ok(await api.get('filters')).filters).toEqual([]);
    expect((await cin(['filters'])).stderr).toMatch(/no saved filters/);
  });

  it('MCP find_items pages through what the query picks, and list_filters answers the saved ones (both read only)', async () => {
    const { tools } = await mcp.listTools();
    const find = tools.find((tool) => tool.name === 'find_items')!;
    expect(find.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(find.description).toMatch(/#Project/);
    expect(tools.find((tool) => tool.name === 'list_filters')!.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });

    const first = await callOk(mcp, 'find_items', { filter: 'today | overdue | no date', limit: 2 });
    expect(first.structured.items.map((i: JsonBody) => i.title)).toEqual(['old invoice', 'call the plumber']);
    expect(first.text).toMatch(/^2 items for 'today \| overdue \| no date' \(more: call again with cursor = next_cursor\)/);
    const rest = await callOk(mcp, 'find_items', { filter: 'today | overdue | no date', limit: 2, cursor: first.structured.next_cursor });
    expect(rest.structured.items.map((i: JsonBody) => i.title)).toEqual(['someday idea']);
    expect(rest.structured.next_cursor).toBeNull();

    expect(await callError(mcp, 'find_items', { filter: 'today &' })).toMatch(/^bad_request: filter: expected a term after & \(at 7\)/);

    const saved = ok(await api.post('filters', { name: 'Calls', query: '@calls' }), 201).filter;
    const listed = await callOk(mcp, 'list_filters');
    expect(listed.structured.filters).toEqual([{ id: saved.id, name: 'Calls', query: '@calls', color: null, position: 0 }]);
    expect(listed.text).toBe(`1 saved filter\n- Calls: @calls · id ${saved.id}`);
  });
});
