import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { CapturedItem, InboxApi, Item } from '../../packages/mcp/src/inbox-api.js';
import { InboxApiError } from '../../packages/mcp/src/inbox-api.js';
import { createInboxMcpServer } from '../../packages/mcp/src/server.js';

/*
 * The one path of `capture` with `parent` a real server cannot be made to take on cue: the parent
 * read fine, the capture succeeded, and then placing the new item under the parent is refused
 * (the parent deleted in between). The new item must not be left behind as a stray copy.
 */

const PARENT_ID = '0190f5e2-7c3a-7b1d-9e2f-000000000001';
const CHILD_ID = '0190f5e2-7c3a-7b1d-9e2f-000000000002';
const INBOX_ID = '0190f5e2-7c3a-7b1d-9e2f-0000000000ff';

const item = (id: string, title: string): Item => ({
  id,
  project_id: INBOX_ID,
  type: 'todo',
  title,
  content_md: null,
  is_completed: false,
  status: 'todo',
  due_at: null,
  parent_id: null,
  tags: [],
  archived_at: null,
  created_at: '2026-11-26T00:00:00.000Z',
  updated_at: '2026-11-26T00:00:00.000Z',
  recurrence: null,
  remind_at: null,
  all_day: false,
  attachments: [],
});

const notUsed = (): Promise<never> => Promise.reject(new Error('not used by this test'));

/** An API whose PATCH refuses the parent, and whose DELETE answers as given; it records the calls. */
function refusingApi(deleteWorks: boolean): { api: InboxApi; calls: string[] } {
  const calls: string[] = [];
  const api: InboxApi = {
    me: async () => ({
      id: 'u',
      email: 'u@example.com',
      is_pro: true,
      plan: 'pro',
      timezone: 'UTC',
      reminder_default: null,
      created_at: '2026-11-26T00:00:00.000Z',
      key: { id: 'k', scopes: ['read', 'capture', 'write'] },
    }),
    getItem: async (id) => {
      calls.push(`get ${id}`);
      return item(PARENT_ID, 'Parent');
    },
    capture: async (input) => {
      calls.push(`capture ${input.text} in ${input.project_id ?? '-'}`);
      const captured: CapturedItem = { ...item(CHILD_ID, input.text), ai: null };
      return captured;
    },
    updateItem: async (id, patch) => {
      calls.push(`patch ${id} parent ${String(patch.parent_id)}`);
      throw new InboxApiError(400, 'bad_request', 'parent_id must be one of your items');
    },
    deleteItem: async (id) => {
      calls.push(`delete ${id}`);
      if (!deleteWorks) throw new InboxApiError(429, 'rate_limited', 'per-minute request limit reached');
    },
    listProjects: async () => [],
    listFilters: notUsed,
    parse: notUsed,
    search: notUsed,
    listItems: notUsed,
    listProjectItems: notUsed,
    listSubtasks: notUsed,
    setCompleted: notUsed,
    completeMany: notUsed,
    updateMany: notUsed,
    listCompleted: notUsed,
    archiveItem: notUsed,
    snoozeItem: notUsed,
    organizeItem: notUsed,
    createProject: notUsed,
  };
  return { api, calls };
}

async function captureSubtask(api: InboxApi): Promise<CallToolResult> {
  const server = createInboxMcpServer({ api });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    return (await client.callTool({ name: 'capture', arguments: { text: 'Child', parent: PARENT_ID } })) as CallToolResult;
  } finally {
    await client.close();
  }
}

const textOf = (result: CallToolResult): string => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('capture with parent when placing the subtask is refused', () => {
  it("deletes the new item again and answers the API's refusal", async () => {
    const { api, calls } = refusingApi(true);
    const result = await captureSubtask(api);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('bad_request: parent_id must be one of your items');
    expect(calls).toEqual([`get ${PARENT_ID}`, `capture Child in ${INBOX_ID}`, `patch ${CHILD_ID} parent ${PARENT_ID}`, `delete ${CHILD_ID}`]);
  });

  it('names the captured item when it cannot be deleted either, so the agent does not capture it again', async () => {
    const { api, calls } = refusingApi(false);
    const result = await captureSubtask(api);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `bad_request: parent_id must be one of your items; the item was captured (id ${CHILD_ID}) but is not a subtask: use update_item with parent_id`,
    );
    expect(calls.at(-1)).toBe(`delete ${CHILD_ID}`);
  });
});
