import type { CaptureInbox, Project } from '@capture-inbox/sdk';
import { CliError, UsageError, type Command } from '../command.js';
import { canConfirm, confirm, YES_OPTION } from '../confirm.js';
import type { Context } from '../context.js';
import { paint } from '../display.js';
import { resolveProject } from '../resolve.js';

const USAGE = 'cin projects [add NAME | rename NAME NEW | rm NAME [--yes]]';
const itemCount = (n: number): string => `${n} item${n === 1 ? '' : 's'}`;

async function list(ctx: Context, inbox: CaptureInbox): Promise<number> {
  const projects = await inbox.projects.list();
  if (ctx.printList(projects)) return 0;
  const width = Math.max(0, ...projects.map((p) => Array.from(p.name).length));
  for (const p of projects) {
    const name = paint(ctx.display, 'blue', p.name) + ' '.repeat(width - Array.from(p.name).length);
    ctx.print(`${name}  ${itemCount(p.item_count).padStart(11)}${p.is_default ? '  (default)' : ''}`.trimEnd());
  }
  return 0;
}

function printProject(ctx: Context, verb: string, project: Project): void {
  if (ctx.json) ctx.printJson(project);
  else ctx.print(`${verb.padEnd(8)}  ${project.name}  ${project.id}`);
}

/** Names with spaces are one argument when quoted, or the words that are left (`cin projects add Home office`). */
const nameOf = (words: string[]): string => words.join(' ').trim();

async function add(ctx: Context, inbox: CaptureInbox, words: string[]): Promise<number> {
  const name = nameOf(words);
  if (name === '') throw new UsageError('cin projects add NAME: the name is missing');
  // POST /projects finds or creates; asking first tells the user which it was.
  const existing = (await inbox.projects.list()).find((p) => p.name.toLowerCase() === name.toLowerCase());
  printProject(ctx, existing ? 'exists' : 'added', existing ?? (await inbox.projects.create({ name })));
  return 0;
}

async function rename(ctx: Context, inbox: CaptureInbox, args: string[]): Promise<number> {
  if (args.length !== 2) throw new UsageError('cin projects rename NAME NEW: quote a name with spaces');
  const project = await resolveProject(inbox, args[0]!);
  printProject(ctx, 'renamed', await inbox.projects.update(project.id, { name: args[1]! }));
  return 0;
}

async function remove(ctx: Context, inbox: CaptureInbox, words: string[]): Promise<number> {
  const given = nameOf(words);
  if (given === '') throw new UsageError('cin projects rm NAME: the name is missing');
  const project = await resolveProject(inbox, given);
  // The server refuses too; saying it here spares the question.
  if (project.is_default) throw new CliError('bad_request', `${project.name} cannot be deleted: items without a project live there`);
  const moved = `${itemCount(project.item_count)} move${project.item_count === 1 ? 's' : ''} to the Inbox`;
  await confirm(ctx, `Delete the project "${project.name}"? Its ${moved}.`, `not deleting the project ${project.name}`);
  await inbox.projects.delete(project.id);
  if (ctx.json) ctx.printJson({ deleted: project.id, moved_items: project.item_count });
  else ctx.print(`deleted   ${project.name} (${moved})`);
  return 0;
}

export const projects: Command = {
  name: 'projects',
  summary: 'your projects; add, rename or delete one',
  usage: USAGE,
  subcommands: ['add', 'rename', 'rm'],
  manual: `Without arguments, lists your projects with how many items each holds; the default one
(Inbox) is marked. Use a project's name (any case) or id wherever a command takes --project.

  cin projects add NAME           a new project (says "exists" when there is one of that name)
  cin projects rename NAME NEW    renames it (quote names with spaces); the Inbox keeps its name
  cin projects rm NAME [--yes]    deletes it; its items move to the Inbox. The Inbox cannot be
                                  deleted. On a terminal cin asks first; elsewhere it refuses
                                  (exit 2) unless --yes

Examples:
  cin projects add "Home office"
  cin projects rename "home office" Office
  cin projects rm Office --yes`,
  lists: true,
  options: { ...YES_OPTION },
  async run(ctx) {
    const [action, ...args] = ctx.positionals;
    if (action === 'rm') canConfirm(ctx, `not deleting the project ${nameOf(args)}`);
    if (action !== undefined && !['add', 'rename', 'rm', 'ls'].includes(action)) throw new UsageError(`unknown action "${action}": add, rename or rm`);
    if (action === 'ls' && args.length > 0) throw new UsageError('cin projects takes no arguments');
    const inbox = await ctx.client();
    if (action === 'add') return add(ctx, inbox, args);
    if (action === 'rename') return rename(ctx, inbox, args);
    if (action === 'rm') return remove(ctx, inbox, args);
    return list(ctx, inbox);
  },
};
