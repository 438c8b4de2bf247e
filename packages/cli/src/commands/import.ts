import type { ImportDocument } from '@capture-inbox/sdk';
import { CliError, UsageError, type Command } from '../command.js';
import { readInput } from './read-file.js';

export const importCommand: Command = {
  name: 'import',
  summary: 'import an export document or a CSV file',
  usage: 'cin import FILE',
  manual: `Imports FILE ("-" for stdin): a JSON export document (cin export, the web app) or CSV with a
header row. Items keep their ids; what exists already is skipped and reported.

Example:
  cin import inbox-2026-11-20.json`,
  options: {},
  async run(ctx) {
    if (ctx.positionals.length !== 1) throw new UsageError('one FILE is required');
    const text = (await readInput(ctx, ctx.positionals[0]!)).toString('utf8');
    let body: ImportDocument | string = text;
    if (text.trimStart().startsWith('{')) {
      try {
        body = JSON.parse(text) as ImportDocument;
      } catch (error) {
        throw new CliError('bad_file', `${ctx.positionals[0]} is not valid JSON: ${(error as Error).message}`);
      }
    }
    const result = await (await ctx.client()).transfer.import(body);
    if (ctx.json) {
      ctx.printJson(result);
      return 0;
    }
    ctx.print(`imported ${result.imported.items} items, ${result.imported.projects} projects, ${result.imported.tags} tags; skipped ${result.skipped.length}`);
    // What was left out is said line by line, so nothing is lost without the user knowing.
    for (const skip of result.skipped) if (skip.reason !== 'exists') ctx.print(`  line ${skip.line_or_index}: skipped, ${skip.reason}`);
    for (const drop of result.dropped ?? []) ctx.print(`  line ${drop.line_or_index}: imported without its ${drop.field} (${drop.value})`);
    return 0;
  },
};
