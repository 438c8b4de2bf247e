import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { ok } from '../helpers/items.js';
import { callError, callOk, connectHttp } from '../helpers/mcp-clients.js';
import { client, createTestApp, createUser, type JsonBody, type TestApp, type TestUser } from '../helpers/test-app.js';

/** MCP `capture` with `items` (clients.md, fourth wave): a list, each string captured as `text` would be, answered as `{ items }` in order. */
describe.each(DIALECTS)('MCP capture with items (%s)', (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let mcp: McpClient;
  let homeId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await createUser(t, 'free');
    homeId = ok(await client(t.app, owner.token).post('projects', { name: 'Home' })).id;
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    mcp = await connectHttp(baseUrl, owner.token);
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  const stored = async (): Promise<JsonBody[]> => ok(await client(t.app, owner.token).get('items?limit=100')).items;

  it('captures each string as an item with quick add, in order, and answers { items }', async () => {
    const answer = await callOk(mcp, 'capture', { items: ['buy milk #Home @shop', 'call mom\nabout the weekend'] });
    const items = (answer.structured as { items: JsonBody[] }).items;
    expect(items.map((i) => [i.title, i.content_md, i.project_id, [...i.tags].sort()])).toEqual([
      ['buy milk', null, homeId, ['shop']],
      ['call mom', 'about the weekend', expect.any(String), []],
    ]);
    expect(answer.text).toMatch(/^Captured 2 items:\n- /);
    expect((await stored()).map((i) => i.title).sort()).toEqual(['buy milk', 'call mom']);
    // text still captures one item, answered as { item }.
    expect(((await callOk(mcp, 'capture', { text: 'one more' })).structured as { item: JsonBody }).item.title).toBe('one more');
  });

  it('refuses no strings, over 100, and text with items, capturing nothing', async () => {
    const before = (await stored()).length;
    expect(await callError(mcp, 'capture', { items: [] })).toBeTruthy();
    expect(await callError(mcp, 'capture', { items: Array.from({ length: 101 }, (_, i) => `x${i}`) })).toBeTruthy();
    expect(await callError(mcp, 'capture', { text: 'a', items: ['b'] })).toMatch(/^bad_request: give text/);
    expect(await callError(mcp, 'capture', {})).toMatch(/^bad_request/);
    expect((await stored()).length).toBe(before);
  });
});
