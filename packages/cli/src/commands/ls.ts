import type { Command } from '../command.js';
import { itemRows } from '../format.js';
import { resolveProject, rowContext } from '../resolve.js';
import { DEFAULT_LIMIT, limitOf, take } from './list-flags.js';

export const ls: Command = {
  name: 'ls',
  summary: 'newest open items',
  usage: 'cin ls [--project NAME] [--all] [--limit N]',
  manual: `Lists your newest items, newest first: short id, [ ] or [x], title, project and due date in
your time zone. Without --all only open items (not done, not archived) are listed.

  --project NAME    only this project's items (name, case-insensitive, or id)
  --all             done and archived items too ([x] done, [-] archived)
  --limit N         at most N items (default ${DEFAULT_LIMIT})

With --json: an array of items as the API answers them.

Example:
  cin ls --project Work --limit 5`,
  options: {
    project: { type: 'string' },
    all: { type: 'boolean' },
    limit: { type: 'string' },
  },
  async run(ctx) {
    const limit = limitOf(ctx);
    const inbox = await ctx.client();
    const name = ctx.string('project');
    const projectId = name !== undefined ? (await resolveProject(inbox, name)).id : undefined;
    const all = ctx.flag('all');
    const query = { limit: Math.min(200, all ? limit : limit + 10), ...(projectId ? { project_id: projectId } : {}), ...(all ? {} : { is_completed: false }) };
    // Search without words lists newest first and filters by project and completion on the server;
    // archived items that were never done are the only ones left to skip here.
    const items = await take(inbox.items.searchAll(query), limit, (item) => all || item.status !== 'archived');
    if (ctx.json) ctx.printJson(items);
    else if (items.length === 0) ctx.note(all ? 'no items' : 'no open items (cin ls --all shows done and archived ones)');
    else for (const row of itemRows(items, await rowContext(inbox))) ctx.print(row);
    return 0;
  },
};
