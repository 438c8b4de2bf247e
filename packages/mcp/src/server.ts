import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { InboxApi } from './inbox-api.js';
import { ToolCatalog } from './tool-catalog.js';
import { ToolContext, type ToolCache } from './tool-context.js';
import { registerCaptureTool } from './tools/capture-tool.js';
import { registerParseTool } from './tools/parse-tool.js';
import { registerChangeTools } from './tools/change-tools.js';
import { registerContextTools } from './tools/context-tools.js';
import { registerProjectTools } from './tools/project-tools.js';
import { registerReadTools } from './tools/read-tools.js';
import { registerFilterTools } from './tools/filter-tools.js';
import { registerBatchTools } from './tools/batch-tools.js';

export const SERVER_NAME = 'capture-inbox';
export const SERVER_VERSION = '0.1.0';

/** Arguments bigger than this (array elements plus object members) are refused before a tool runs. */
const MAX_TOOL_INPUT_ELEMENTS = 200;

/** The tools, by the names clients call them (an interface: never renamed). */
export const TOOL_NAMES = [
  'capture',
  'search',
  'list_items',
  'get_item',
  'update_item',
  'complete_item',
  'archive_item',
  'list_projects',
  'organize_item',
  'parse_text',
  'snooze_item',
  'delete_item',
  'create_project',
  'get_current_time',
  'list_subtasks',
  'find_items',
  'list_filters',
  'complete_items',
  'update_items',
  'list_completed',
] as const;

export interface InboxMcpServerOptions {
  api: InboxApi;
  /** The key's cache of time zone and project names; a server made per request passes the key's own. */
  cache?: ToolCache;
  /** For the caches' clock in tests. */
  now?: () => number;
  /** Serve only the tools with readOnlyHint (`/mcp/read`, `cin mcp --read-only`): the agent can change nothing. */
  readOnly?: boolean;
}

/** An MCP server with the Capture Inbox tools over one API client (one key). Connect it to a transport. */
export function createInboxMcpServer({ api, cache, now, readOnly = false }: InboxMcpServerOptions): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Capture Inbox', version: SERVER_VERSION },
    {
      capabilities: { tools: {} },
      maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
      instructions:
        (readOnly ? 'This server is read-only: it offers only the tools that read; nothing the user has can be changed through it. ' : '') +
        "Capture Inbox is the user's inbox of notes and todos. Use capture for anything the user wants to remember or do (with parent, a subtask); " +
        'search and list_items to find items, find_items for a filter query (today | overdue, #Work & @calls) and list_filters for the saved ones, list_completed for what got done; get_item, update_item, complete_item, snooze_item, archive_item, delete_item and organize_item on one item by its id; ' +
        'complete_items and update_items for many ids at once (one call, not one per item); ' +
        'list_subtasks for its subtasks; get_current_time before writing a date. ' +
        'An item has id, title, content_md (Markdown body), project_id and project_name, type (todo|note), status, is_completed, ' +
        'due_at and remind_at (UTC ISO 8601), recurrence, parent_id (set on a subtask) and tags. ' +
        'Lists answer a page and next_cursor: while it is not null, call again with cursor set to it (other arguments unchanged) for the next page.',
    },
  );
  const ctx = new ToolContext(api, cache, now);
  const tools = new ToolCatalog(server, readOnly);
  registerCaptureTool(tools, ctx);
  registerParseTool(tools, ctx);
  registerReadTools(tools, ctx);
  registerFilterTools(tools, ctx);
  registerChangeTools(tools, ctx);
  registerBatchTools(tools, ctx);
  registerProjectTools(tools, ctx);
  registerContextTools(tools, ctx, now ?? Date.now);
  tools.install();
  return server;
}
