import type { Command } from '../command.js';
import { UsageError } from '../command.js';

export const projects: Command = {
  name: 'projects',
  summary: 'your projects',
  usage: 'cin projects',
  manual: `Lists your projects with how many items each holds; the default one (Inbox) is marked.
Use a project's name (any case) or id with --project.

Example:
  cin projects --json`,
  options: {},
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('cin projects takes no arguments');
    const list = await (await ctx.client()).projects.list();
    if (ctx.json) {
      ctx.printJson(list);
      return 0;
    }
    const width = Math.max(0, ...list.map((p) => Array.from(p.name).length));
    for (const p of list) {
      const count = `${p.item_count} item${p.item_count === 1 ? '' : 's'}`;
      ctx.print(`${p.name}${' '.repeat(width - Array.from(p.name).length)}  ${count.padStart(11)}${p.is_default ? '  (default)' : ''}`.trimEnd());
    }
    return 0;
  },
};
