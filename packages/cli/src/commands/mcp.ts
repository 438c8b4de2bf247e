import { UsageError, type Command } from '../command.js';

export const mcp: Command = {
  name: 'mcp',
  summary: 'run the MCP server on stdio, for agents (Claude, Cursor …)',
  usage: 'cin mcp [--read-only]',
  manual: `Serves the Capture Inbox tools to an agent over the Model Context Protocol on stdin and
stdout, with the saved key (or CAPTURE_INBOX_TOKEN and CAPTURE_INBOX_URL). The agent starts it;
it runs until the agent closes stdin. stdout carries only protocol messages.

Tools: capture, parse_text, search, list_items, find_items, list_filters, list_completed,
get_item, list_subtasks, update_item, update_items, snooze_item, complete_item, complete_items,
archive_item, delete_item, organize_item, list_projects, create_project, get_current_time. The
key's scopes decide which of them work.

  --read-only   serve only the tools that read (readOnlyHint), like the service's /mcp/read:
                the agent can change nothing, whatever the key's scopes

Example (Claude Code), naming the installed cin by its path (\`command -v cin\`) so nothing is
fetched from a registry:
  claude mcp add capture-inbox -- "$(command -v cin)" mcp`,
  options: { 'read-only': { type: 'boolean' } },
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('cin mcp takes no arguments');
    if (ctx.json) throw new UsageError('cin mcp speaks the MCP protocol on stdout; --json does not apply');
    const { server, token } = await ctx.credentials();
    // Loaded only here: the other commands never pay for the MCP server's code.
    const { runStdioServer } = await import('@capture-inbox/mcp');
    await runStdioServer({ baseUrl: server, token, signal: ctx.io.signal, readOnly: ctx.flag('read-only') });
    return 0;
  },
};
