import { UsageError, type Command } from '../command.js';

export const exportCommand: Command = {
  name: 'export',
  summary: 'everything, to stdout',
  usage: 'cin export [--format json|markdown]',
  manual: `Writes your whole inbox to stdout: the JSON export document (which cin import and the web app
read back), or one Markdown document with a checklist per project.

  --format F        json (default) or markdown

Example:
  cin export > inbox-$(date +%F).json`,
  flagValues: { format: ['json', 'markdown'] },
  options: { format: { type: 'string' } },
  async run(ctx) {
    const format = ctx.string('format') ?? 'json';
    if (format !== 'json' && format !== 'markdown') throw new UsageError('--format must be json or markdown');
    if (format === 'markdown' && ctx.json) throw new UsageError('--json and --format markdown exclude each other');
    const inbox = await ctx.client();
    if (format === 'json') ctx.printJson(await inbox.transfer.exportJson());
    else ctx.io.stdout.write(await inbox.transfer.exportMarkdown());
    return 0;
  },
};
