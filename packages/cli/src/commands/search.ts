import type { ItemStatus } from '@capture-inbox/sdk';
import { UsageError, type Command } from '../command.js';
import { itemRows } from '../format.js';
import { resolveProject, rowContext } from '../resolve.js';
import { limitOf, take } from './list-flags.js';

const STATUSES: readonly ItemStatus[] = ['backlog', 'todo', 'doing', 'done', 'archived'];

export const search: Command = {
  name: 'search',
  summary: 'find items by words',
  usage: 'cin search QUERY [--status S] [--tag T] [--project NAME]',
  manual: `Finds items whose title or body has every word of QUERY (the start of a word, any case:
"mil" finds "Milk"), newest first, done and archived ones included.

  --status S        backlog, todo, doing, done or archived
  --tag T           items with this tag
  --project NAME    items of this project (name, case-insensitive, or id)
  --limit N         at most N items (default 20)

Example:
  cin search milk --status todo`,
  lists: true,
  options: {
    status: { type: 'string' },
    tag: { type: 'string' },
    project: { type: 'string' },
    limit: { type: 'string' },
  },
  async run(ctx) {
    const q = ctx.positionals.join(' ').trim();
    if (q === '') throw new UsageError('QUERY is required');
    const status = ctx.string('status');
    if (status !== undefined && !STATUSES.includes(status as ItemStatus)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
    const limit = limitOf(ctx);
    const inbox = await ctx.client();
    const tag = ctx.string('tag');
    const name = ctx.string('project');
    const query = {
      q,
      limit: Math.min(200, limit),
      ...(status ? { status: status as ItemStatus } : {}),
      ...(tag ? { tag } : {}),
      ...(name !== undefined ? { project_id: (await resolveProject(inbox, name)).id } : {}),
    };
    const items = await take(inbox.items.searchAll(query), limit);
    if (ctx.printList(items)) return 0;
    if (items.length === 0) ctx.note(`nothing matches "${q}"`);
    else for (const row of itemRows(items, await rowContext(inbox), ctx.display)) ctx.print(row);
    return 0;
  },
};
