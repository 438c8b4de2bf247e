import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createInboxMcpServer, TOOL_NAMES, type InboxApi } from '../../packages/mcp/src/index.js';

/** tools/list as a client reads it, from a server whose API is never called. */
async function listed(readOnly: boolean): Promise<{ tools: Tool[]; bytes: number }> {
  const server = createInboxMcpServer({ api: {} as InboxApi, readOnly });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'unit', version: '1.0.0' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return { tools, bytes: Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools } })) };
}

/** How the catalog writes schemas short without changing what they accept (decision 0078). */
describe('the MCP tool list', () => {
  it('lists every tool name under 10 KiB, and the read-only list only the read tools', async () => {
    const all = await listed(false);
    expect(all.tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(all.bytes).toBeLessThanOrEqual(10_240);
    const read = await listed(true);
    expect(read.tools.map((t) => t.name).sort()).toEqual(
      all.tools
        .filter((t) => t.annotations?.readOnlyHint === true)
        .map((t) => t.name)
        .sort(),
    );
    expect(read.tools.length).toBe(10);
  });

  it('writes nullable fields as a type list and enums without their type, and lists answers by their fields', async () => {
    const byName = new Map((await listed(false)).tools.map((t) => [t.name, t]));
    const update = byName.get('update_item')!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(update.due_at).toEqual({ type: ['string', 'null'], format: 'date-time' });
    expect(update.title).toEqual({ type: ['string', 'null'] });
    expect(update.status).toEqual({ enum: ['backlog', 'todo', 'doing', 'done', 'archived'] });
    expect(update.recurrence).toMatchObject({ type: ['object', 'null'], required: ['rule', 'from'] });
    expect(update.id).toEqual({ type: 'string' });
    expect(byName.get('update_item')!.outputSchema).toEqual({ type: 'object', required: ['item'] });
    expect(byName.get('complete_items')!.outputSchema).toEqual({ type: 'object', required: ['results'] });
    // update_items names update_item's fields and points to it for the rest.
    const batch = byName.get('update_items')!;
    expect(Object.keys(batch.inputSchema.properties ?? {}).sort()).toEqual([...Object.keys(update).filter((k) => k !== 'id'), 'ids'].sort());
    expect((batch.inputSchema.properties as Record<string, unknown>).title).toEqual({});
    expect(batch.description).toMatch(/^update_item for 1\.\.100 ids/);
    expect((batch.inputSchema.properties as Record<string, unknown>).ids).toMatchObject({ type: 'array', minItems: 1, maxItems: 100 });
  });

  it('leaves idempotentHint out only where it is the default (false)', async () => {
    const byName = new Map((await listed(false)).tools.map((t) => [t.name, t]));
    expect(byName.get('capture')!.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
    expect(byName.get('complete_items')!.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  });
});
