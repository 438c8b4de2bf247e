import type { CaptureInbox, SavedFilter } from '@capture-inbox/sdk';
import { UsageError, type Command } from '../command.js';
import type { Context } from '../context.js';
import { paint } from '../display.js';
import { findSavedFilter, withFilterCaret } from '../saved-filters.js';

const USAGE = 'cin filters [add NAME QUERY | rm NAME]';

async function list(ctx: Context, inbox: CaptureInbox): Promise<number> {
  const filters = await inbox.filters.list();
  if (ctx.printList(filters)) return 0;
  if (filters.length === 0) {
    ctx.note('no saved filters (cin filters add NAME QUERY saves one)');
    return 0;
  }
  const width = Math.max(0, ...filters.map((f) => Array.from(f.name).length));
  for (const f of filters) ctx.print(`${paint(ctx.display, 'blue', f.name)}${' '.repeat(width - Array.from(f.name).length)}  ${f.query}`);
  return 0;
}

function printFilter(ctx: Context, verb: string, filter: SavedFilter): void {
  if (ctx.json) ctx.printJson(filter);
  else ctx.print(`${verb.padEnd(8)}  ${filter.name}  ${filter.query}  ${filter.id}`);
}

export const filters: Command = {
  name: 'filters',
  summary: 'your saved filters; save or delete one',
  usage: USAGE,
  subcommands: ['add', 'rm'],
  manual: `Without arguments, lists your saved filters in their order, each with its query. A saved
filter is a named query of the filter language (docs/filters.md), the same in the web app, the API
and MCP; cin ls --view NAME lists its items, cin ls --filter QUERY reads a query without saving it.

  cin filters add NAME QUERY   saves QUERY under NAME (quote both); a query that does not parse
                               is refused with a caret where reading failed
  cin filters rm NAME          deletes it (by name, case-insensitive, or id); its items stay

The language in one breath: today, tomorrow, overdue, no date, 7 days, due before: friday,
#Project, @tag, @home* (wildcard), todos, notes, subtasks, done, archived, all, recurring,
no reminder, no tags, search: words; joined by & (and), | (or), ! (not) and parentheses.

Examples:
  cin filters add "Work calls" '#Work & @calls'
  cin filters add Soon '(today | overdue) & !#Someday'
  cin ls --view soon
  cin filters rm "Work calls"`,
  lists: true,
  options: {},
  async run(ctx) {
    const [action, ...args] = ctx.positionals;
    if (action !== undefined && !['add', 'rm', 'ls'].includes(action)) throw new UsageError(`unknown action "${action}": add or rm`);
    if (action === 'add' && args.length !== 2) throw new UsageError('cin filters add NAME QUERY: quote the name and the query');
    if (action === 'rm' && args.length !== 1) throw new UsageError('cin filters rm NAME: quote a name with spaces');
    if (action === 'ls' && args.length > 0) throw new UsageError('cin filters takes no arguments');
    const inbox = await ctx.client();
    if (action === 'add') {
      const [name, query] = args as [string, string];
      printFilter(ctx, 'added', await withFilterCaret(query, () => inbox.filters.create({ name, query })));
      return 0;
    }
    if (action === 'rm') {
      const filter = await findSavedFilter(inbox, args[0]!);
      await inbox.filters.delete(filter.id);
      if (ctx.json) ctx.printJson({ deleted: filter.id });
      else ctx.print(`deleted   ${filter.name}`);
      return 0;
    }
    return list(ctx, inbox);
  },
};
